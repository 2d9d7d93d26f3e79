// Package workflow is a client for the records and workflow-automation API:
// records of the four record types (apps, elements, tasks, transactions)
// with their related items, attachments, watchers and comments, and the
// users and groups of the workspace.
//
// # Getting started
//
// The API uses OAuth 2.0 client credentials, created in the web
// application (user settings, OAuth section, a new token of kind API
// access). The secret is shown once; the credentials act as that user, so
// records created through the API are attributed to them and what the user
// may not see answers 403. Create one Client per set of credentials and
// share it; it is safe for concurrent use and caches the access token and
// the connections:
//
//	c, err := workflow.NewClient(
//		workflow.WithCredentials(clientID, clientSecret),
//		workflow.WithEndpoint(baseURL, authURL), // baseURL ends in /v1
//	)
//
// The endpoints are required: the service has no single well-known host
// (EU-region accounts have their own), so the SDK never guesses where to
// send the credentials. NewClientFromEnv reads all four from
// WORKFLOW_CLIENT_ID, WORKFLOW_CLIENT_SECRET, WORKFLOW_BASE_URL and
// WORKFLOW_AUTH_URL (the token endpoint is <auth URL>/oauth/token).
// Endpoints must be https; loopback
// hosts (the fake) may use http, and WithInsecureHTTP allows others.
//
// The token is fetched with the first call, cached (24 hours, or what the
// token endpoint says) and shared by all goroutines; a 401 drops it and the
// call is sent again once with a new one. Other client options:
// WithHTTPClient (a copy of your *http.Client: its Timeout bounds each
// attempt), WithTokenSource, WithRateLimit, WithLogger, WithObserver and
// WithUserAgent; and every RequestOption (below), as a default for every
// call. CloseIdleConnections releases a client's idle connections; the
// client stays usable.
//
// # Records and filters
//
// A Record is a flat map of field names to string values, its id in its
// "id" field; times are strings in the API's form YYYY-MM-DDTHH:MM:SS.SSSZ
// in UTC (FormatTime, ParseTime). Client.Records creates, reads and
// updates records, and searches them with an RSQL filter built with
// package rsql, which quotes values, prints times in the API's form and
// checks the expression before anything is sent:
//
//	page, err := c.Records.List(ctx, workflow.Tasks, "it-requests", &workflow.ListOptions{
//		First:  500,
//		Filter: rsql.And(rsql.Field("Status").Eq("Open"), rsql.Field("Due Date").Lt(time.Now())),
//	})
//
// The API documents no parentheses, so an OR under an AND is printed in
// disjunctive normal form ((a,b);c becomes a;c,b;c), within a size limit
// past which Validate reports an error; rsql.Raw passes a ready-made filter
// through, checked by parsing it. Package rsql's documentation has the
// grammar and the quoting rule.
//
// # Paging
//
// Every list the service pages has the same three methods: List (one
// page, a *Page), Pages (an iterator of pages, with Total and the paging
// state) and All (an iterator of items), through one pager: records, users,
// groups, group members, related items, watchers and comments. The
// iterators are lazy, follow the page cursors forward (First, After) or
// backward (Last, Before), stop cleanly on break, and yield an error at
// most once, as their last value, naming the request. Prefetch fetches the
// next page while the loop works on the current one.
//
//	for item, err := range c.Records.All(ctx, workflow.Tasks, "it-requests", opts) {
//		if err != nil {
//			return err
//		}
//		fmt.Println(item.Data["Title"])
//	}
//
// Page sizes are 1 to 1000 (100 by default); mixing the two directions is
// a *ValidationError. Each item carries the Cursor of its position: passed
// as After (or Before going backward), it resumes the walk right after that
// item, later or in another process, on the same list with the same filter.
// The lists under a record and the group members take no filter: the
// service publishes none for them, and a Filter is a *ValidationError.
//
// An iterator needs no restart loop: it requests a failed page again from
// its own cursor until RetryPolicy.MaxElapsed has passed without a page
// (see Retries below). For output that holds every record exactly once
// across a kill: write each record and keep its cursor; now and then (and
// on interrupt) flush and sync the output, then save the cursor with the
// output's size; on start, truncate the output to the saved size and
// resume from the saved cursor. A kill in between leaves records past the
// saved cursor, which the truncation removes before they are written again.
//
// # Typed records
//
// Decode, Encode, GetAs, CreateAs, UpdateAs and AllAs map records to your
// own struct types with `workflow:"Field Name"` tags (names matched
// exactly; strings, bools, numbers, time.Time, encoding.TextUnmarshaler
// types and pointers to them; options omitempty, and extra for a Record
// field that keeps the fields no other field maps). AllItemsAs also yields
// each record's cursor, so a typed walk can resume; a record that does not
// decode is a *DecodeError with its cursor.
//
// Package upsert (Records, and RecordsAs for struct types) makes the
// records of a definition match a stream of inputs by a key field: batched
// look-ups, creates and updates of changed fields only, concurrency that
// adapts to the service's rate limit, and a look-up before creating again
// when the answer to a create was lost, instead of creating it again
// (upsert.Records' documentation says precisely what is guaranteed).
//
// # Attachments
//
// Client.Attachments streams uploads (Upload from any io.Reader, UploadFile
// from a path) and downloads (Download by id, DownloadAttachment following
// Attachment.ContentURL, on the API's host only) without holding the file
// in memory. The service's limit of 250 MB is read as 250,000,000 bytes
// (MaxUploadSize): a larger file of known size is refused before anything
// is sent, one of unknown size is cut off as it passes the limit, and both
// match ErrTooLarge, as a 413 does. The upload answers in state PROCESSING;
// WaitProcessed polls until the state is VALID, or ERROR (an error matching
// ErrAttachmentFailed). An upload is retried only when its reader can be
// rewound (UploadFile, an io.ReadSeeker); a download only until its body
// starts. The attachment list is not paged: List returns it whole.
//
// # Related items, watchers and comments
//
// The lists under a record are services of their own on Client.Records:
// Related, Watchers and Comments, each with List, Pages and All.
//
//   - Related items are added one per call (Related.Add), as the API
//     requires, by the related record's id and, optionally, its
//     definition's alias; Related.AddMany sends one request per ref and
//     returns a *RelatedItemsError listing each ref that failed. An item
//     is removed by the related record's id.
//   - Watchers are added and removed by bare e-mail address, several per
//     request, each checked with net/mail before sending. A watcher's
//     Target is a user or a group; groups watch a record but cannot be
//     added through the API.
//   - Comments are posted as plain text, attributed to the token's user;
//     Comments.Add returns the service's text/plain answer as sent.
//
// Related items, watchers, comments, users, groups and attachments keep
// the members the SDK does not model in Extra and write them back.
//
// # Users and groups
//
// Client.Users lists, creates, reads and deactivates users; Client.Groups
// lists, reads, creates and updates groups, and Client.Groups.Members
// lists, adds and removes a group's members. Creating a user needs a bare
// e-mail address and a first and last name. A GroupRequest sends only what
// it sets (flags are *bool): members (UserIDs) for groups that are not
// dynamic, e-mail Domains for dynamic ones. Only the user list takes a
// filter.
//
// # Errors
//
// A status of 400 or more is an *APIError (status, method, URL, message,
// body, header, Retry-After and the service's request ID, read from
// X-Request-Id, X-Correlation-Id or Request-Id), whose text names the
// method and path and ends with the request ID to quote to support:
//
//	workflow: GET /v1/tasks/it-requests/42: 404 Not Found: no record with id "42" (request ID req-7)
//
// No error text holds a query value or a request body: APIError.URL shows
// each query value as REDACTED (APIError.FullURL returns them), and the
// server's message loses the values the request sent (Body keeps the
// answer as it came). A call that got no usable answer (a lost
// connection, an ended context, an answer it could not read) is a
// *RequestError, whose cause errors.Is and errors.As reach.
//
// It matches ErrNotFound (404), ErrForbidden (403), ErrUnauthorized (401,
// or refused credentials), ErrTooLarge (413), ErrUnprocessable (422) and
// ErrRateLimited (429 after the retries) with errors.Is. Bad input (and a
// nil context) is a *ValidationError naming the field and the rule,
// returned before anything is sent. A failed token request is an
// *AuthError carrying the OAuth error code and description of any 2xx or
// 4xx token answer; invalid_client and unauthorized_client match
// ErrUnauthorized. A record field that does not fit a struct field is a
// *DecodeError, whose text names the record field, the struct field and
// its type but not the value (its Value member has it); a refused
// redirect a *RedirectError. A filter that does not parse is a
// *ValidationError wrapping an *rsql.ParseError, whose text gives the
// offset and what was expected there, never the filter's text:
//
//	workflow: invalid ListOptions.Filter: must be a valid RSQL filter: rsql: at offset 5: expected operator, found '=' without a closing '='
//
// A success answer the SDK cannot use (an empty body, null, or a value of
// the wrong JSON type where a resource is due; a list without its items,
// total or paging; duplicate member names in a record; a run of empty
// pages that each claim more) is an error matching ErrUnexpectedResponse
// that names the request, never an empty result; it arrived whole, so it
// is not retried (Temporary is false). A body cut off before its end, in
// transit or inside its JSON, is no malformed answer but a lost
// connection: it is retried as one, and the error, when the attempts run
// out, says after how many bytes the body ended and matches
// io.ErrUnexpectedEOF. An attempt ended by a
// time limit of the SDK's own or the transport's (RetryPolicy.AttemptTimeout,
// a connect timeout, the token request's bound) matches ErrTimeout; only
// the caller's own deadline matches context.DeadlineExceeded.
//
// # Retries and rate limits
//
// Every request goes through one path: the per-call options, an attempt
// loop with the bearer token, the rate limiter (WithRateLimit, off by
// default) and the origin check, then the reply is read and reported.
// Temporary and OutcomeUnknown are its one classification of failures,
// exported for the packages built on it:
//
//   - 429 is retried for every method: the service did not act.
//   - 500, 502, 503, 504, dropped connections, bodies cut off and attempt
//     timeouts are retried for idempotent methods only (GET, HEAD,
//     OPTIONS, PUT, DELETE), so a POST that may have been acted on is
//     never sent twice.
//   - Waits grow exponentially with full jitter (4 attempts, 250 ms
//     doubling, at most 30 s a wait). A Retry-After (seconds or a date)
//     sets the wait, up to RetryPolicy.MaxRetryAfter (60 s); a longer one,
//     overflowing ones included, returns the *APIError at once with
//     RetryAfter set; "0" retries at once; a negative, unparseable or past
//     one is ignored. A wait never runs past the context's deadline.
//   - An attempt that gets no response headers within AttemptTimeout (30 s
//     by default; reading the body is not bounded) is abandoned with an
//     error matching ErrTimeout.
//   - Other 4xx answers are never retried; a 401 gets one retry with a new
//     token. A failing token endpoint is asked again at most about once a
//     second, however many goroutines wait on it.
//   - A body is sent again only if it can be rewound.
//   - RetryPolicy.MaxElapsed (2 minutes) bounds retrying by time as well:
//     no wait begins that would end later than that after the call's first
//     attempt. An iterator (All, Pages) whose page request has used up its
//     attempts on failures that are retried requests the same page again
//     from its own last cursor, until MaxElapsed has passed since its last
//     page: a nightly export rides out a restart or failover of the
//     service with no restart loop of its own.
//
// Redirects to another scheme, host or port are refused, so the token never
// leaves the service's host. RetryPolicy.OnRetry reports each retry, so a
// long wait never looks like a hang.
//
// # Per-call options
//
// Every service method and iterator ends in ...RequestOption: WithHeader,
// WithQuery, WithMaxAttempts, WithRetryPolicy, WithAttemptTimeout,
// WithResponseInto (the final response's status, header, request ID and
// attempt count, also after an *APIError) and WithAttemptHook (called
// around each attempt). Iterators apply them to every page request.
// They are checked before anything is sent: headers the SDK owns
// (Authorization, Content-Type, Host, Accept, User-Agent, ...) and the
// query parameters of ListOptions are refused, never overridden silently.
// Given to NewClient, a RequestOption is a default for every call of the
// client; a call's own options come after it.
//
// # Operations the package does not model
//
// Client.Call sends any operation of the API through the same path
// (authentication, retries, options, observers, error decoding) and reads
// its answer by the same rules as every method; Segment checks and escapes
// one path segment, and PagedList pages a list of any item type with the
// same pager. NewRequest and Do send a request built by the caller, with
// the per-call options given to Do. Do sends the token only to the API's
// own scheme, host and port; a request for any other is refused before
// anything is sent.
//
// # Logging and observability
//
// The client is silent by default. WithLogger logs every attempt at debug
// level as one record, "workflow: request" (or "workflow: request failed,
// retrying"), with the method, the route template
// (/{recordType}/{alias}/{id}, never the path), the attempt, the status,
// the duration, the request ID, the wait before the next attempt and, for
// a transport failure, its class; a new token at info, a failed token
// request at warn:
//
//	level=DEBUG msg="workflow: request failed, retrying" method=GET route=/{recordType}/{alias} attempt=1 status=503 duration=1.2ms request_id=req-2 wait=181ms
//
// WithObserver reports calls, attempts, token requests and rate-limit waits
// with route templates, hosts, statuses, durations and error classes; the
// module github.com/seed-a15e58aa/workflow-go/otel turns them into
// OpenTelemetry spans and metrics. No body, URL, query, filter, header
// value, secret or token is ever logged or reported, and neither errors
// nor the printed Client show a secret.
//
// # Testing
//
// Package workflowtest is an in-process fake of the whole service, for
// end-to-end tests of code that uses this package; cmd/workflow-fake
// serves the same fake on a port.
//
// # What is still assumed
//
// The API's own documentation leaves much "not shown"; the service's
// published OpenAPI document fills most of it, and the SDK follows that
// document. Where neither says, the SDK (and workflowtest) decide:
//
//   - API and token hosts: WithEndpoint (or the WORKFLOW_ variables) is
//     required; only placeholders are published.
//   - Token request: HTTP Basic and a form body, as the API's
//     documentation shows (the published document shows a JSON body; the
//     service accepts both).
//   - A record's id: the "id" field; no field is named for it.
//   - Error bodies: APIError.Message is read from message,
//     error_description, detail, error, title or errors; Body keeps the
//     raw bytes. No error body schema is published.
//   - Rate limits, idempotency: a 429 honours Retry-After when sent and
//     backs off otherwise; a POST is not sent again after a 5xx or a
//     dropped connection. No rate-limit headers and no idempotency key
//     are published.
//   - Times: sent as YYYY-MM-DDTHH:MM:SS.SSSZ in UTC, read in any RFC 3339
//     precision; the documentation writes milliseconds, the published
//     example none.
//   - RSQL quoting: values with special characters are double-quoted with
//     backslash escapes; only the operators are documented.
//   - Upload size: 250 MB is 250,000,000 bytes, the stricter reading.
//   - Upload reply: a 202 with an Attachment or with no body; without one
//     the attachment has no ID (find it with List). The documentation
//     shows a body, the published document none.
//   - Related-items paging: no paging parameters are sent unless set; the
//     iterators follow end_cursor only while has_next_page is true. The
//     list is published as paged but with no query parameters.
//   - Removing a related item: Records.Related.Remove takes the related
//     record's id (RelatedItem.ID), the only id a listed item carries.
//   - Related record kinds: RelatedItem.RecordType maps TASK, APP, ELEMENT
//     and TRANSACTION (any case, plural too); only TASK and APP are shown.
//   - Comment reply: Records.Comments.Add returns the 201 text/plain body
//     verbatim, with no meaning given to it (the fake sends the new
//     comment's id).
//   - Comment sources: Comment.Source keeps any value; WEB, API and
//     WORKFLOW are constants, and the published list ends in "...".
//   - Record create and update replies: the flat field map; a reply
//     wrapped as {"data": {...}} is accepted too.
//   - Group create and update replies: a *Group when the reply has a body,
//     nil when it has none (no shape is published).
//   - PUT /groups/{id}: only the fields set are sent; the fake changes
//     only those. Whether PUT replaces the group is not published.
//   - Attachment states: another state than PROCESSING, VALID and ERROR
//     ends WaitProcessed with an error.
//   - contentUrl: a path on the API host; an absolute URL on another host
//     is refused.
//   - Download headers: the name from Content-Disposition, the size from
//     Content-Length; only application/octet-stream is published.
//   - Deactivate reply: a reply without a body gives nil, nil (the
//     published reply is 200 with the User).
//   - NewUser.NeverNotify: left out when false, so the service's default
//     (a welcome e-mail) applies.
//   - ViewState: an open string ("e.g. PRIVATE, PUBLIC" is published).
//   - Link attachments in the list: the fake lists them as attachments
//     named by their URL; how links are listed is not published.
//   - Group flags: only their names are published; their doc comments are
//     our wording.
//
// # Guarantees
//
// Each guarantee is held by the test named after it, run in CI on the
// workflowtest fake with fault injection or on a test server.
//
//   - A long export survives a flaky service (10% 503s, 2% 429s with
//     Retry-After, 1% dropped connections, random delays): every record is
//     seen exactly once and in order, with or without prefetch, and each
//     retry is reported through RetryPolicy.OnRetry. TestExportUnderFaults.
//   - An export of 100,000 records with 1% of its pages cut off in transit
//     and 5 s of 503s in the middle yields every record exactly once, with
//     no code around All. TestExportRidesOutCutPagesAndAnOutage.
//   - A token that expires during an export is replaced with exactly one
//     token request. TestTokenExpiryMidExport.
//   - 64 calls meeting a 401 at once all succeed with one new token.
//     TestBurstOf401sRecovers.
//   - A create is never retried where the service may have acted, so it
//     never creates two records; after a 429 it is retried and creates
//     one. TestCreateIsRetriedOnlyWhereTheServerDidNotAct.
//   - An attempt without response headers within AttemptTimeout is retried
//     for a GET and not for a POST, and a slow body is not cut.
//     TestAttemptTimeout.
//   - A connect timeout is retried; a caller without a deadline never gets
//     an error matching context.DeadlineExceeded; a caller's own cancelled
//     context is not retried. TestRetryDecidesByTheCallersOwnContext.
//   - An upload cut by a dropped connection is not retried automatically
//     and leaves at most one attachment; one that meets a 429 is sent
//     again from the first byte. TestUploadCutByDroppedConnection,
//     TestUploadMeeting429IsRetriedFromTheStart.
//   - A failing token endpoint receives about one request per second
//     however many goroutines use the client; a one-off failure recovers,
//     refused credentials fail at once, a hung endpoint is asked again
//     after the token request's own timeout (ErrTimeout), and a token
//     request nobody waits for any more ends at once.
//     TestFailingTokenEndpointBoundedRequests, TestTokenEndpointBlipRecovers,
//     TestRefusedCredentialsFailFast, TestHungTokenEndpointIsRetried,
//     TestStalledTokenRequestEndsWithItsLastWaiter.
//   - Token replies are read as the service sends them (any 2xx;
//     expires_in an integer, a fraction or a numeric string; token_type in
//     any case). TestTokenRepliesAsTheServiceSendsThem.
//   - The rate limiter covers the replay after a 401, and a wait past the
//     deadline matches context.DeadlineExceeded.
//     TestRateLimiterCoversTheReplayAfter401.
//   - Cancelling the context returns context.Canceled promptly at every
//     stage (token fetch, request in flight, backoff, prefetch, upload
//     stream, a blocking reader) and leaves no goroutine behind; an
//     iteration yields nothing after its context ends.
//     TestCancellationAtEveryStage, TestCancelMidPageStopsAtOnce.
//   - A malformed answer is an error matching ErrUnexpectedResponse, never
//     silence. TestResourceMissingFromA2xxIsAnError,
//     TestRecordListWithoutItemsOrPaging, TestEndlessEmptyPagesStop.
//   - Bad input returns a *ValidationError naming the field, and nothing
//     is sent, not even a token request.
//     TestBadInputIsRefusedBeforeAnyRequest, TestPathSegmentsAndTextsAreChecked.
//   - Client.Do sends the token only to the API's origin.
//     TestDoSendsTheTokenOnlyToTheAPIOrigin.
//   - Every request the SDK's own tests send to the fake, and every reply,
//     is checked against an OpenAPI document of the service's published
//     contract (internal/contract/openapi.yaml).
//     TestContractCheckFailsOnAWrongBody.
//   - Secrets and tokens, plain, base64 or URL-encoded, never appear in
//     logs, errors, options or the printed client, even when the server
//     echoes them. TestSecretsNeverLeak, TestEchoedSecretsAreRedacted,
//     TestClientValueIsSafeToPrint.
//   - No error text, log line or observer error holds a query value or a
//     request body, even when the server echoes them, nor a filter's text
//     or a record's value when they do not parse or decode.
//     TestNoRequestDataInErrors, TestNoFilterTextInParseErrors,
//     TestNoRecordValueInDecodeErrors.
//   - A sync of records under faults leaves every input exactly once in
//     the service (package upsert). TestRecordsExactlyOnceUnderFaults.
package workflow

//go:generate go run ./internal/modelgen/gen ./internal/contract/openapi.yaml . workflow
