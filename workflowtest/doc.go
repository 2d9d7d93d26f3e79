// Package workflowtest is a stateful in-process fake of the whole records
// and workflow-automation service, for tests of code that uses the SDK (or
// talks HTTP to the service directly). It is a real HTTP server on
// 127.0.0.1, not a mock: the SDK's whole transport chain (token request,
// bearer token, retries, error decoding) runs against it.
//
//	func TestMyIntegration(t *testing.T) {
//		srv := workflowtest.Start(t) // closed when the test ends
//		srv.Define(workflow.Tasks, "it-requests", "Title")
//		srv.Seed(workflow.Tasks, "it-requests", workflow.Record{"Title": "Printer"})
//		c := srv.Client()
//		page, err := c.Records.List(t.Context(), workflow.Tasks, "it-requests", nil)
//		...
//	}
//
// The server implements every endpoint of the specification: the token
// endpoint, records (definitions with required fields, create, get,
// update, a list with real RSQL filtering and cursors both ways), related
// items, file and link attachments, watchers, comments, users, groups and
// membership. On top of that the test controls the clock (WithClock,
// Advance), per-user permissions (Deny, DenyAdmin), a rate limit
// (WithRateLimit, SetRateLimit), latency per request (WithLatency,
// SetLatency), attachment processing (WithAttachmentPolicy,
// SetAttachmentState, a Fault with ProcessingError), injected faults
// (Inject) and reads what happened (Requests, Records, KeyCounts,
// Attachments, Watchers, Comments, Related, Members, Group, Users,
// Attribution). cmd/workflow-fake serves the same thing on a port.
//
// There is no package-level state: every server is independent, so
// parallel tests each get their own. A server is safe for concurrent
// clients. Ids and list order are deterministic: the same calls on a new
// server (or after Reset) give the same ids.
//
// Injected faults (Fault, Inject) make matching requests fail the ways a
// network and a busy service do: a delay, an error status with or without
// Retry-After, a truncated JSON answer (Malformed), a connection closed
// before the request is handled (Drop), and a connection closed after the
// request was handled and its effects kept but before the answer was sent
// (DropAfter): the record is created or the file stored, yet the client
// sees only a connection error, the case to test idempotency and retries
// of non-idempotent requests with. A reply a fault produced carries the
// header X-Workflowtest-Fault: 1 (FaultHeader).
//
//	srv.Inject(workflowtest.Fault{Route: "POST /v1/tasks/*", Count: 1, DropAfter: true})
//	_, err := c.Records.Create(ctx, workflow.Tasks, "it-requests", rec)
//	// err != nil (the SDK does not resend a POST after a dropped
//	// connection), and srv.Records(workflow.Tasks, "it-requests") holds
//	// the record.
//
// # Without Go: cmd/workflow-fake
//
// cmd/workflow-fake serves the same fake on a port, seeded with demo data
// (four record definitions, 1,000 tasks, users and groups), for curl or for
// clients written in other languages:
//
//	go run ./cmd/workflow-fake -addr 127.0.0.1:8080   # from a checkout of the repository
//
// It prints the base URL, the auth URL, the demo client id and secret
// (demo-client / demo-secret), the path of each seeded record list
// (/v1/tasks/it-requests, /v1/apps/crm-accounts, /v1/elements/parts,
// /v1/transactions/invoices), the other demo users, the groups and the
// download path of the seeded attachment a1 of task 1, then two curl
// commands to paste. Ctrl+C stops it; all state is in memory; -v logs every
// request. The Go SDK (and its examples) use it with WORKFLOW_CLIENT_ID=demo-client
// WORKFLOW_CLIENT_SECRET=demo-secret WORKFLOW_BASE_URL=http://127.0.0.1:8080/v1
// WORKFLOW_AUTH_URL=http://127.0.0.1:8080.
//
// A token is asked for with HTTP Basic (an id or secret with characters
// such as + / = % form-urlencoded inside the header, as RFC 6749 section
// 2.3.1 says) and a form body; a filter is URL-encoded:
//
//	TOKEN=$(curl -s -u demo-client:demo-secret -d grant_type=client_credentials \
//	  http://127.0.0.1:8080/oauth/token | jq -r .access_token)
//	curl -s -G -H "Authorization: Bearer $TOKEN" \
//	  --data-urlencode 'filter=Status==Open;Priority=ge=4' --data-urlencode 'first=5' \
//	  http://127.0.0.1:8080/v1/tasks/it-requests
//
// The answer has items (each with data and cursor), total and paging; pass
// paging.end_cursor as after, with the same filter, for the next page.
// A comment is the text itself (text/plain, answered 201 text/plain with
// the new comment's id); watchers are added by e-mail address; an upload
// is multipart with a file part and an optional description part:
//
//	curl -s -H "Authorization: Bearer $TOKEN" -H 'Content-Type: text/plain' \
//	  --data-binary 'Looking into it.' http://127.0.0.1:8080/v1/tasks/it-requests/1/comment
//	curl -s -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
//	  -d '{"users": ["chen.cho@example.com"]}' http://127.0.0.1:8080/v1/tasks/it-requests/1/watchers
//	curl -s -H "Authorization: Bearer $TOKEN" http://127.0.0.1:8080/v1/tasks/it-requests/1/watchers
//	curl -s -H "Authorization: Bearer $TOKEN" -F file=@examples/upload/testdata/report.pdf \
//	  -F description=Q3 http://127.0.0.1:8080/v1/tasks/it-requests/1/attachments
//	# 202: {"id":"a2","name":"report.pdf",...,"state":"PROCESSING","contentUrl":"/v1/tasks/it-requests/1/attachments/a2/content",...}
//	curl -s -OJ -H "Authorization: Bearer $TOKEN" \
//	  http://127.0.0.1:8080/v1/tasks/it-requests/1/attachments/a2/content
//
// # Where the specification is silent
//
// Where the published documents are silent, the fake decides as follows.
// Where the SDK has to decide the same question, it decides the same way
// (package workflow's documentation, "What is still assumed", lists those
// choices).
//
// Errors and authentication:
//   - Every failure has the body {"status": <status>, "message": "<text>"}
//     and Content-Type application/json. The token endpoint's failures
//     also carry the OAuth 2.0 "error" code (invalid_client,
//     invalid_request, unsupported_grant_type; RFC 6749 section 5.2).
//   - Every JSON request body is an object: an absent or empty body, null,
//     an array or any other value is 400 "malformed body: ...".
//   - The token response is {"access_token", "token_type": "Bearer",
//     "expires_in": 86400} with Cache-Control: no-store. Tokens expire
//     24 hours after issue on the server's clock. The client authenticates
//     with HTTP Basic only, its id and secret form-urlencoded inside the
//     header (RFC 6749 section 2.3.1), so a raw secret containing "+" or
//     "%" is refused; the request body must be form-encoded with
//     grant_type=client_credentials (400 otherwise); wrong credentials, or
//     those of a deactivated user, get 401.
//   - A missing, unknown or expired bearer token, or one of a deactivated
//     user, gets 401 with WWW-Authenticate: Bearer on every /v1 route,
//     before any 404 or 405. The scheme name is case-insensitive.
//   - Paths outside /v1 and /oauth/token get 404; a known path with
//     another method gets 405 with an Allow header. A 404 for an unknown
//     /v1 route names the nearest route when one is a few edits away
//     ("...; did you mean GET /v1/tasks/it/1/comment?").
//   - Permissions: Deny makes every route under a (record type, alias)
//     answer 403, checked before the definition or record is looked up;
//     relating a record to one in a denied definition is 403 too.
//     DenyAdmin makes every /users and /groups route answer 403. Everyone
//     else may do everything.
//   - The rate limit is a token bucket per client id (token requests
//     included), off by default; a refused request gets 429 with
//     Retry-After in whole seconds (at least 1).
//
// Records:
//   - Create: the body is the flat field map (string values only; a
//     number, boolean or null is 400), answered 201 with the stored record
//     as a flat map including "id". An "id" in the body is ignored: the
//     fake assigns ids "1", "2", ... from one sequence per server (Seed
//     may set its own). A required field is missing when it is absent or
//     empty; the 400 names all missing fields in definition order.
//   - Update: PUT with the fields to change, answered 200 with the whole
//     record; other fields are kept; changing "id" or emptying a required
//     field is 400. Get answers the flat map.
//   - Records are attributed to the user of the token (Attribution).
//   - List: items in insertion order. A cursor is opaque: the record's
//     position in insertion order plus a hash of the list and the filter,
//     so it stays valid while records are added (a running iteration sees
//     every earlier record exactly once) and is 400 when used with another
//     list or filter. The same filter spelled differently (spaces,
//     quotes, operator aliases) is the same filter. first defaults to 100;
//     last without before pages back from the end; before without last
//     gives 100. Mixing first/after with last/before, an empty after or
//     before, a repeated parameter, or first/last outside 1..1000 is 400.
//     Other query parameters are ignored. total counts every record that
//     matches the filter; has_next_page and has_previous_page say whether
//     matching records exist after the page's end and before its start;
//     an empty page has empty start and end cursors.
//   - Filters are parsed with rsql.Parse (parentheses, quoted values and
//     the (a,b) list form are accepted); a syntax error or an unknown
//     operator is 400 with the parser's message; a comparison that breaks
//     a rule of rsql.CheckComparison (null with an ordering, range or
//     contains operator, in any case of null) is 422, the status the
//     specification lists for the record list. The rules are rsql's, so
//     a filter the SDK validates is one the fake accepts.
//     Evaluation rules: field names are matched exactly; a field the
//     record does not have is absent; null matches absent and empty
//     fields; ==, !=, =in= and =out= compare the text exactly, byte
//     for byte ("007" is not 7, "1.0" is not 1: the specification gives
//     them no numeric meaning); the ordering operators (=gt=, =ge=, =lt=,
//     =le=, =bt=, =nbt=) compare as numbers when both values are decimal
//     numbers, as times when both are in the API's time form (which sort
//     as text), as strings (byte order) otherwise; =lk= is "contains"
//     without wildcards, =lki= the same ignoring case; =bt= is
//     inclusive; the positive operators never match
//     absent or empty fields and the negated ones (!=, =nbt=, =out=, !lk=,
//     !lki=) are their exact negations.
//
// Sub-resources (lists in the order the items were added; the attachment
// list is a bare JSON array, the others are the service's Paged<X>: the
// items themselves with "total" and "paging", paged and with cursors
// exactly like the record list; a filter on them is 400, since the
// service publishes none):
//   - Related items: {"id", "type", "alias", "cursor"}, id being the
//     related record's id, type its kind in capitals (APP, TASK, ELEMENT,
//     TRANSACTION), cursor the item's own. POST takes one {"id", "alias"?}
//     (an array is 400: one per call; unknown members are 400), answered
//     201 without a body. The related record is looked up by id, under the
//     alias when given (in any record type), otherwise in every
//     definition: none, or several without an alias, is 422; a record in
//     a denied definition is 403; the record itself, or a record whose id
//     is already related, is 422 (the id alone names an item in DELETE).
//     DELETE .../related-items/{id of the related record} answers 200
//     without a body (404 when not related). The related-items list takes
//     the paging parameters of the record list although the service
//     publishes none for it.
//   - Attachments: the service's Attachment {"id", "name", "description",
//     "mediaType", "size", "state", "createdAt", "contentUrl",
//     "viewState"}; viewState is always "PRIVATE", contentUrl the path of
//     the download route (/v1/{recordType}/{alias}/{id}/attachments/
//     {attachmentId}/content). GET .../attachments is a bare array. An
//     upload must be multipart/form-data with one "file" part carrying a
//     file name, and may have a "description" part (at most 64 KiB); other
//     parts are ignored (at most 1 MiB in all). An empty file, or no file,
//     is 400 ("invalid file"); more than 250 MB (read as 250,000,000
//     bytes, like the SDK) is 413, and the rest of the body is read and
//     dropped, up to 1 GiB, so that the client sees the answer. The
//     content is counted and hashed (SHA-256) as it streams, and kept up
//     to WithStoredContentLimit (16 MiB by default) for the download
//     route. The media type is the part's Content-Type, or guessed from
//     the file name's extension when that is absent or
//     application/octet-stream. The 202 answer carries the attachment in
//     state "PROCESSING"; the final state is "VALID" (or "ERROR" when
//     AttachmentPolicy.FinalState says so, or a Fault with
//     ProcessingError hit the upload), reached per the policy: immediately
//     (the default: the next read shows it), after N GETs of the
//     attachment (listing does not count), after a duration on the
//     server's clock, or by hand. GET .../{attachmentId}/content answers
//     200 with the bytes as application/octet-stream, their length
//     and Content-Disposition: attachment; filename=...; 422 while the
//     attachment is not VALID, 501 when its bytes were over the stored
//     limit, 404 for a link. Links: POST .../url-links with {"url",
//     "description"} (url absolute http or https), answered 201 with the
//     same two members; the link is listed as an attachment named by its
//     url, state "VALID", mediaType "text/uri-list", size 0. DELETE
//     answers 200 with no body. Ids are "a1", "a2", ... and an attachment
//     is found only under its own record.
//   - Watchers: {"id", "target"}, the target {"type": "User", "id",
//     "email", "firstName", "lastName"} or {"type": "Group", "id",
//     "name"}; watch ids are UUIDs "a0000000-0000-4000-8000-<n>". POST
//     (201) and DELETE (200) take {"users": [e-mail, ...]} and answer
//     without a body; addresses are matched ignoring case; adding a
//     watcher twice or removing one who is not watching changes nothing;
//     an empty list or an entry that net/mail does not parse to exactly
//     itself is 400, an address of no user is 422. Groups watch only
//     through WatchGroup (the API adds users only).
//   - Comments: {"id", "createdAt", "source", "contents", "createdBy"},
//     createdBy being the author as the users routes show users; ids are
//     UUIDs "c0000000-0000-4000-8000-<n>". POST takes the text itself as a
//     text/plain body (UTF-8; no Content-Type is read as text, any other
//     media type or charset is 400; blank or not UTF-8 is 400) and answers
//     201 with Content-Type text/plain and the new comment's id as the
//     body. The comment is written by the token's user with source "API";
//     SeedDemo's comment has source "WEB".
//
// Users and groups:
//   - User: {"id", "email", "firstName", "lastName", "status",
//     "jobTitle"}, status "ACTIVE" or "INACTIVE"; ids are UUIDs counting
//     up: "00000000-0000-4000-8000-000000000001" (DefaultUserID), then
//     ...0002 and so on. POST /users takes {"email", "firstName",
//     "lastName", "jobTitle",
//     "neverNotify"}: the first three are required (400 naming the
//     missing one), the email must be a bare address as net/mail parses
//     it and unique ignoring case (400); answered 201. neverNotify is
//     recorded (User.NeverNotify). POST /users/{id}/deactivate answers 200
//     with the user, also when it was already inactive; from then on its
//     tokens get 401 and its credentials are refused. Users created
//     through the API have no credentials; AddUser creates users with
//     credentials.
//   - Group: {"id", "name", "assignable", "watchable", "mentionable",
//     "managed", "dynamic", "domains": [{"id", "domain"}]}; ids are UUIDs
//     counting up from "10000000-0000-4000-8000-000000000001", domain ids
//     from "d0000000-0000-4000-8000-000000000001". POST /groups (201) and PUT
//     /groups/{id} (200) take the service's GroupRequest {"name",
//     "assignable", "watchable", "mentionable", "approver", "dynamic",
//     "dataAccess", "hidden", "tags", "userIds", "domains"} and answer
//     with the group. A create needs a name; a PUT changes what its body
//     sends and keeps the rest. userIds are for groups that are not
//     dynamic, domains for dynamic ones (400 otherwise); making a group
//     dynamic drops its members, and the reverse its domains. AddGroup
//     and AddDynamicGroup create groups directly. POST /groups/{id}/users
//     answers 201 and DELETE 200, both with no body, taking
//     {"userIds": [...]}; adding a member twice or removing a non-member
//     changes nothing; an empty list, an unknown user, or a dynamic group
//     is 400.
//   - GET /users, /groups and /groups/{id}/users are paged like the record
//     list (same parameters and cursors), answering the service's
//     Paged<X>: {"items": [X], "total", "paging"}, the objects themselves
//     without a per-item cursor. Only /users takes a filter (on the
//     members of the user object, as strings); a filter on the other two
//     is 400.
//
// Bodies and times:
//   - JSON request bodies may be at most 10 MiB; a Content-Type, when
//     sent, must be application/json. Bodies of the shapes above refuse
//     unknown fields (400), so a client sending a misspelt field finds out.
//   - Times are strings in the API's form YYYY-MM-DDTHH:MM:SS.SSSZ, UTC,
//     from the server's clock.
package workflowtest
