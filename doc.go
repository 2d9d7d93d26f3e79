// Package workflow is a client for the records and workflow-automation API:
// records of the four record types (apps, elements, tasks, transactions)
// with their related items, attachments, watchers and comments, and the
// users and groups of the workspace.
//
// # Getting started
//
// Create one Client and share it; it is safe for concurrent use and caches
// the access token and the connections:
//
//	c, err := workflow.NewClient(
//		workflow.WithCredentials(clientID, clientSecret),
//		workflow.WithEndpoint(baseURL, authURL), // baseURL ends in /v1
//	)
//
// The client ID and secret come from the web application (user settings,
// OAuth section, a new token of kind API access). The endpoints are those
// of the account's region (EU-region accounts have their own hosts).
// NewClientFromEnv reads all four from WORKFLOW_CLIENT_ID,
// WORKFLOW_CLIENT_SECRET, WORKFLOW_BASE_URL and WORKFLOW_AUTH_URL.
//
// # Records
//
// A Record is a flat map of field names to string values. Search with an
// RSQL filter built by the rsql package, and page with ListOptions:
//
//	page, err := c.Records.List(ctx, workflow.Tasks, "it-requests", &workflow.ListOptions{
//		First:  500,
//		Filter: rsql.And(rsql.Field("Status").Eq("Open"), rsql.Field("Due Date").Lt(time.Now())),
//	})
//
// All walks every page with a range-over-func iterator; each item's Cursor
// resumes the walk later, and Prefetch fetches the next page while your
// loop works on the current one:
//
//	for item, err := range c.Records.All(ctx, workflow.Tasks, "it-requests", opts) {
//		if err != nil {
//			return err
//		}
//		fmt.Println(item.Data["Title"])
//	}
//
// Decode, Encode and AllAs map records to your own struct types with
// `workflow:"Field Name"` tags; AllItemsAs also yields each record's cursor,
// so a typed walk can be resumed.
//
// Package upsert (Records, and RecordsAs for struct types) makes the
// records of a definition match a stream of inputs by a key field: batched
// look-ups, creates and updates of changed fields only, concurrency that
// adapts to the service's rate limit, and a look-up before creating again
// when the answer to a create was lost, instead of creating it again
// (upsert.Records' documentation says precisely what is guaranteed).
//
// # Attachments, users and groups
//
// AttachmentsService streams uploads (up to MaxUploadSize) and downloads
// without holding the file in memory, and WaitProcessed waits until the
// service has processed an upload. Related items, watchers and comments
// are managed through RecordsService; UsersService and GroupsService manage
// the workspace's users and groups. Every list the service pages has the
// same three forms: one page (List...), an iterator of pages (...Pages)
// and an iterator of items (...All).
//
// # Errors
//
// Failed calls return an *APIError (status, method, URL, message, body,
// and the service's request ID, also shown by Error) that matches
// ErrNotFound, ErrForbidden, ErrUnauthorized, ErrTooLarge, ErrRateLimited
// and ErrUnprocessable with errors.Is. Bad input is a *ValidationError,
// returned before any request is sent. A failed token request is an
// *AuthError. A success answer the SDK cannot use (a missing resource, a
// list without its items or paging) is an error matching
// ErrUnexpectedResponse, never an empty result; an attempt ended by a time
// limit of the SDK's own (RetryPolicy.AttemptTimeout, 30s by default)
// matches ErrTimeout, the caller's deadline context.DeadlineExceeded.
//
// # Retries, authentication and security
//
// Every request goes through one path: retries with exponential backoff
// and full jitter that honour Retry-After (RetryPolicy); then, for each
// attempt, the bearer token (refreshed once on a 401) and the rate limiter
// (WithRateLimit, off by default).
// Requests that may have been acted on (a POST that met a 500 or a dropped
// connection) are not retried. An attempt that gets no response headers
// within RetryPolicy.AttemptTimeout (30 s by default) is abandoned and,
// for idempotent methods, retried. Redirects to another scheme, host or port
// are refused, so the token never leaves the service's host; plain http is
// accepted only for loopback hosts unless WithInsecureHTTP is given.
// Secrets and tokens never appear in errors, logs or printed values.
//
// # Per-call options and observability
//
// Every method ends in ...RequestOption: WithHeader, WithQuery,
// WithMaxAttempts, WithRetryPolicy, WithAttemptTimeout and
// WithResponseInto change or observe that one call, and are checked before
// anything is sent. WithLogger logs every attempt at debug level by route
// template; WithObserver reports calls, attempts, token requests and
// rate-limit waits, and the separate module
// github.com/seed-a15e58aa/workflow-go/otel turns them into OpenTelemetry
// spans and metrics. CloseIdleConnections releases a client's idle
// connections.
//
// # Testing
//
// Package workflowtest is an in-process fake of the whole service, for
// end-to-end tests of code that uses this package; cmd/workflow-fake
// serves the same fake on a port.
package workflow
