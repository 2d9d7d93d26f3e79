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
// Retry-After, an outage of a given length (For), a truncated JSON answer
// (Malformed), a body cut off in transit (Cut), a connection closed
// before the request is handled (Drop), and a connection closed after the
// request was handled and its effects kept but before the answer was sent
// (DropAfter): the record is created or the file stored, yet the client
// sees only a connection error, the case to test idempotency and retries
// of non-idempotent requests with. A reply a fault produced carries the
// header X-Workflowtest-Fault: 1 (FaultHeader). A fault, the latency
// (SetOperationLatency) and the request log (RequestRecord.Operation)
// can name an operation by its id in the service's published document
// (createRecord, recordList, ...), whatever its path.
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
// (four record definitions, 1,000 tasks, users and groups, and three
// automations and three views of the app crm-accounts: see SeedDemo), for
// curl or for clients written in other languages:
//
//	go run ./cmd/workflow-fake -addr 127.0.0.1:8080   # from a checkout of the repository
//
// It prints the base URL, the auth URL, the demo client id and secret
// (demo-client / demo-secret), the path of each seeded record list
// (/v1/tasks/it-requests, /v1/apps/crm-accounts, /v1/elements/parts,
// /v1/transactions/invoices), the other demo users, the groups and the
// download path of the seeded attachment a1 of task 1, the demo app's
// automations and views, then two curl commands to paste. Ctrl+C stops
// it; all state is in memory, but for uploads over 1 MiB, kept in
// temporary files until it stops; -v logs every request; -strict refuses
// body members the schemas do not declare; -stored-content-limit lowers
// the size of the uploads whose bytes are kept; -seed TYPE/ALIAS=N
// (repeatable) defines a definition and stores N generated records of
// twelve fields in it (SeedGenerated), for a test at scale from any
// language:
//
//	go run ./cmd/workflow-fake -seed tasks/big-export=1000000
//
// The Go SDK (and its examples) use it with WORKFLOW_CLIENT_ID=demo-client
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
// # What replies hold
//
// A success reply holds only the members its operation's response schema
// names in the service's published document (Documented, the default),
// because a member that the document does not promise back (a table's
// categoryId, description, icon and color; a skill's discoveryProperties)
// is not one a client can depend on reading: code tested against the
// fake then works against the service. WithReplies(Generous), or the
// environment variable WORKFLOWTEST_REPLIES=generous (for a server made
// without the option, cmd/workflow-fake's included), sends what the fake
// holds beside them, as a service may. Errors are sent as made.
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
//     invalid_request, unsupported_grant_type; RFC 6749 section 5.2); a
//     grant_type other than client_credentials is unsupported_grant_type,
//     in a form as in JSON.
//   - Every JSON request body is checked, before anything else about the
//     request (its definition's permissions, whether its resource exists),
//     against the request schema of its operation in the service's
//     published document (the project's copy, internal/contract's
//     openapi.yaml): see "Request bodies" below.
//   - The token response is {"access_token", "token_type": "Bearer",
//     "expires_in": 86400} with Cache-Control: no-store. Tokens expire
//     24 hours after issue on the server's clock. The answer is 200, as RFC
//     6749 section 5.1 says; the published document says 201 (the SDK
//     takes any 2xx). The body is form-encoded (RFC 6749 section 4.4.2)
//     or the published JSON AccessTokenRequest {"client_id",
//     "client_secret", "grant_type"}, with grant_type=client_credentials
//     (400 otherwise). The client authenticates with HTTP Basic, its id and
//     secret form-urlencoded inside the header (RFC 6749 section 2.3.1, so
//     a raw secret containing "+" or "%" is refused), or with client_id
//     and client_secret in the body; both at once is 400 invalid_request
//     (one method per request, section 2.3); neither, wrong credentials,
//     or those of a deactivated user, get 401.
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
//     number, boolean or null is 400 "invalid /<field>: ..."), answered 201 with the stored record
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
//     before, or first/last outside 1..1000 is 400. So is a query the
//     fake cannot read as sent, on every route (a rule of the fake,
//     drawn from API.md's "special characters are URL-encoded"): a ';'
//     that is not percent-encoded (%3B; Go's query parser drops such a
//     pair, and the list would come back unfiltered), a broken
//     percent-escape, a parameter given twice, and, on a paged list, a
//     parameter the list does not take (filter on a list without one);
//     the 400 names the parameter and how to write it. Routes other
//     than lists ignore query parameters. total counts every record that
//     matches the filter; has_next_page and has_previous_page say whether
//     matching records exist after the page's end and before its start;
//     an empty page has empty start and end cursors.
//   - How a filtered record list is computed: the first request with a
//     filter tests every record of the definition once and keeps where the
//     matches are (an index per filter, for the 32 most recent filters of
//     a definition); the total is the number of matches, and every later
//     page of the walk costs a binary search and its own records, whatever
//     the definition's size. Records added since are tested when the next
//     page is asked for; an update of a record makes the next request
//     start the index over. Records are held compactly (the field names
//     shared by the records of one shape, the values in one string):
//     about 400 bytes of heap for a record of twelve short fields.
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
//     (an array is 400 "malformed body": one per call), answered
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
//     content is counted and hashed (SHA-256) as it streams, and kept
//     whole for the download route: in memory up to 1 MiB, beyond that
//     in a temporary file under os.TempDir, removed when the attachment
//     is deleted, when Reset forgets it, and when the server closes.
//     WithStoredContentLimit lowers the size of the files kept. The media type is the part's Content-Type, or guessed from
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
//     attachment is not VALID, 501 when its bytes were over a lowered
//     stored-content limit (the message names WithStoredContentLimit and
//     workflow-fake's -stored-content-limit), 404 for a link. Links: POST .../url-links with {"url",
//     "description"} (the fake's rule: url absolute http or https, 422),
//     answered 201 with the
//     same two members; the link is listed as an attachment named by its
//     url, state "VALID", mediaType "text/uri-list", size 0. DELETE
//     answers 200 with no body. Ids are "a1", "a2", ... and an attachment
//     is found only under its own record.
//   - Watchers: {"id", "target"}, the target {"type": "User", "id",
//     "email", "firstName", "lastName"} or {"type": "Group", "id",
//     "name"}; watch ids are UUIDs "a0000000-0000-4000-8000-<n>". POST
//     (201) and DELETE (200) take {"users": [e-mail, ...]} and answer
//     without a body; addresses are matched ignoring case; adding a
//     watcher twice or removing one who is not watching changes nothing,
//     and so does an empty list; an entry that is not an e-mail address
//     (net/mail parses it to exactly itself) is 400, an address of no user
//     is 422. Groups watch only
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
//     it (400) and unique ignoring case (400); answered 201. neverNotify is
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
//     with the group. A create needs a name (the fake's rule, 422); a PUT
//     changes what its body sends and keeps the rest. userIds are for
//     groups that are not dynamic, domains for dynamic ones (the
//     published rule, 422 otherwise); making a group
//     dynamic drops its members, and the reverse its domains. AddGroup
//     and AddDynamicGroup create groups directly. POST /groups/{id}/users
//     answers 201 and DELETE 200, both with no body, taking
//     {"userIds": [...]}; adding a member twice or removing a non-member
//     changes nothing, and so does an empty list; an unknown user, or a
//     dynamic group, is 422.
//   - GET /users, /groups and /groups/{id}/users are paged like the record
//     list (same parameters and cursors), answering the service's
//     Paged<X>: {"items": [X], "total", "paging"}, the objects themselves
//     without a per-item cursor. Only /users takes a filter (on the
//     members of the user object, as strings); a filter on the other two
//     is 400.
//
// The workspace configuration (the service's published rules, and the
// fake's own, marked "the fake's rule"; every body is checked as
// "Request bodies" says, so only what that does not cover is listed):
//   - Automations (GET, POST .../{recordType}/{alias}/automations, POST
//     .../validate, GET, PUT, DELETE .../automations/{id}): a Passthrough
//     object kept as sent, with the "id" the fake mints. The fake's rule:
//     a "name" holding a non-empty string (422; Validate answers
//     {"valid": false, "errors": [...]} instead). The definition must
//     exist (404) and be open to the user (403).
//   - Views (GET, POST /apps/{alias}/views, GET, PUT .../views/{id}): the
//     view input holds exactly one variant (list, kanban, calendar,
//     dashboard, agent; published, 422). The variant's members are kept
//     and served merged into the view; the ones the variant forwards as is
//     but the view's read schema types (columns and allowedFilterFields:
//     arrays of UUIDs, displayByField and agentId: UUIDs, rows: an int32,
//     density: a string) must have that type (the fake's rule, 422), so
//     that what is stored can be served. The fake's rules: a handle names
//     one view of an app (422), {id} in GET and PUT is the id or the
//     handle, a share set names users by id or e-mail address and groups
//     by id or name (422 otherwise).
//   - Elements (POST /elements, GET and PUT /elements/{alias}): name and
//     categoryId required (published). Importing a source table needs
//     cloudLinkId, database, schema and table, and no fields (published in
//     prose, 422). The fake's rules: namespace and handle are derived
//     from the name when absent (422 when none can be), the namespace is
//     unique (422). An update changes what it sends.
//   - Apps (POST /aspects/compose, PUT /aspects/compose/{id}): a
//     Passthrough kept as sent, with the "id" the fake mints. The fake's
//     rules: the app's alias is its "namespace", a non-empty string,
//     required by POST (422) and unique (422); the composed app is defined
//     under it at once, so its records, automations, views, agents and
//     skills can be used, as with Define. A POST whose "id" names a
//     composed app replaces it. An app has one alias: an update without a
//     namespace keeps it, and one with a new namespace moves the app's
//     record definition and records, automations, views, agents and
//     skills to the new alias, under which the old one names nothing; a
//     new alias that names another app, composed or defined (Define,
//     Seed), is 422 and changes nothing.
//   - Flows (POST /flows/create, PUT /flows/{id}): a Passthrough kept as
//     sent, with the "id" the fake mints.
//   - Agents (GET, POST /apps/{alias}/agents, PUT .../agents/{id}): the
//     agent input holds exactly one subtype; the service publishes one,
//     elementum (422). Its settings are kept as sent, members the document
//     does not list included; tools and a2aSkills are objects kept as sent
//     and replace the lists when present. The app must exist (404).
//   - Skills (GET, POST /apps/{alias}/skills, PUT .../skills/{id}): a
//     create needs skill.name (published); properties and tools are kept
//     as sent. The app must exist (404).
//   - Tables (/tables and their joins and join-field mappings): a field
//     input sets exactly one of reference, cloud and calculation
//     (published, 422). The fake's rules (422): a table's handle is
//     unique; a join's source is a table and its pairs name fields of the
//     two tables; an update does not change a field's kind; a table that
//     another joins cannot be deleted; POST of a mapping whose source is
//     mapped already is 422 (PUT changes it).
//   - Search tables (/aspects/{aspectId}/search-tables and
//     .../linked-search-tables): the fake's rule: a Cortex service is
//     linked once per aspect (422); a linked table has no Snowflake
//     settings to update (422).
//   - Domains (POST /domains, PUT /domains/{id}, POST and DELETE
//     /groups/{id}/domains): exactly one of managedDomain and emailDomain
//     (published, 422); sso and selfRegistration are mutually exclusive
//     (published, 422, also against what the domain has). The fake's
//     rules (422): a domain is a name such as example.com, unique; a new
//     domain needs its name; an update does not change the type; a
//     group's domains are for dynamic groups and name at least one domain.
//
// Request bodies:
//   - Every JSON request body is checked in one place, against the
//     request schema of its operation: a body that is not JSON, or not
//     the JSON value the operation takes (an object), is 400 "malformed
//     body: ..."; one that breaks the schema is 400 "invalid <member>:
//     <rule>", the member named by its JSON pointer (RFC 6901), e.g.
//     "invalid /view/kanban/name: must be a string, not null". The schema
//     rules: the JSON type of every member the schema declares (null
//     included: nothing is nullable; an opaque object such as filter,
//     sort, orderBy or limit must be an object), the formats uuid, email,
//     date-time and int32, enums, required members, and the type of every
//     item of an array (a null item is refused). A rule the document
//     states in prose ("exactly one of ...", "mutually exclusive with
//     ...") or a rule of the fake is 422, worded the same. Nothing of a
//     refused request is stored.
//   - Members a schema does not declare are accepted, as the service
//     accepts them. Where the document keeps them (additionalProperties:
//     true, or a Passthrough: view variants, agent subtypes, tools and
//     a2aSkills, skill properties, automations, apps, flows, and the
//     opaque filter, sort, orderBy and limit objects) they are stored and
//     served back as sent, null included; elsewhere they are dropped.
//     WithStrictBodies (cmd/workflow-fake -strict) refuses the dropped
//     ones with 400, to catch misspelt member names.
//   - JSON request bodies may be at most 10 MiB; a Content-Type, when
//     sent, must be application/json.
//   - The types the fake decodes the workspace configuration's request
//     bodies into, and builds its replies from, are package admin's,
//     generated from the contract document (admin's *_gen.go files): the
//     request bodies (admin.TableCreateRequest, admin.TableJoinInput, ...)
//     and the read models (admin.Table, ...). The fake imports admin and
//     keeps no body or reply struct of its own for the tables, search
//     tables, elements, domains, views, agents and skills. The records
//     API's bodies (a new user, a group, a related item, a link) are
//     decoded into package workflow's models (workflow.NewUser,
//     workflow.GroupRequest, workflow.RelatedRef, workflow.Link), generated
//     from the same document. The bodies of the member and watcher changes,
//     which package workflow keeps unexported, are decoded into types the
//     same generator writes into this package (bodies_gen.go), and its
//     replies (users, groups, comments, the paged list's envelope and the
//     record list's items) are built from plain types it writes there too:
//     they write every member, empty or not, where package workflow's
//     models leave an empty one out.
//     Only free-form bodies (apps, flows, automations) are read as JSON
//     objects; the error body, which the document leaves free-form, is
//     the fake's own.
//   - The seeding helpers (AddUser, AddView, AddAutomation, SeedDemo) store
//     only what a request could have stored: they panic on what the
//     checks refuse.
//
// Times are strings in the API's form YYYY-MM-DDTHH:MM:SS.SSSZ, UTC, from
// the server's clock.
package workflowtest

//go:generate go run ../internal/modelgen/gen ../internal/contract/openapi.yaml . workflowtest
