package contract

import (
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// Shapes from the service's published examples.
const (
	uuidA = "550e8400-e29b-41d4-a716-446655440000"
	uuidB = "550e8400-e29b-41d4-a716-446655440001"
	uuidC = "550e8400-e29b-41d4-a716-446655440002"
	uuidD = "550e8400-e29b-41d4-a716-446655440003"

	paging = `{"has_next_page":false,"has_previous_page":false,"start_cursor":"Ijf7eqZc","end_cursor":"cHJvY2Vz"}`

	userJSON  = `{"id":"` + uuidA + `","email":"jane@example.com","firstName":"Jane","lastName":"Doe","status":"ACTIVE","jobTitle":"Engineer"}`
	groupJSON = `{"id":"` + uuidB + `","name":"Engineering","assignable":true,"watchable":true,"mentionable":true,"managed":false,"dynamic":false,"domains":[{"id":"` + uuidC + `","domain":"example.com"}]}`

	attachmentJSON = `{"contentUrl":"/v1/apps/my-namespace/REC-001/attachments/abc-123/content","viewState":"PRIVATE","state":"VALID",` +
		`"mediaType":"application/pdf","id":"abc-123","name":"invoice.pdf","createdAt":"2026-02-03T10:30:00Z","description":"Q4 Invoice","size":245678}`
	processingJSON = `{"contentUrl":"/v1/apps/my-namespace/REC-001/attachments/abc-124/content","viewState":"PRIVATE","state":"PROCESSING",` +
		`"mediaType":"text/plain","id":"abc-124","name":"notes.txt","createdAt":"2026-02-03T10:30:00.000Z","size":5}`

	commentJSON = `{"id":"` + uuidA + `","createdAt":"2026-04-04T03:25:38.045Z","source":"API","contents":"Shipment delayed due to weather",` +
		`"createdBy":{"firstName":"Jane","email":"jane@example.com","id":"` + uuidB + `","lastName":"Doe"}}`
	userWatcherJSON  = `{"id":"` + uuidA + `","target":{"type":"User","id":"` + uuidB + `","email":"jane@example.com","firstName":"Jane","lastName":"Doe"}}`
	groupWatcherJSON = `{"id":"` + uuidC + `","target":{"type":"Group","id":"` + uuidD + `","name":"Engineering"}}`

	recordJSON  = `{"Title":"Order ID 23456","Status":"In Progress","Created on":"2020-04-04"}`
	relatedJSON = `{"items":[{"id":"TSK-4","type":"TASK","alias":"tasks","cursor":"Ijf7"},{"id":"ITM-4","type":"APP","alias":"itmanagement","cursor":"cHJv"}],"total":2,"paging":` + paging + `}`

	bearer = "Bearer tok-123456"
)

func paged(items ...string) string {
	return fmt.Sprintf(`{"items":[%s],"total":%d,"paging":%s}`, strings.Join(items, ","), len(items), paging)
}

// exchangeCase is one request and the reply the server gives to it.
type exchangeCase struct {
	name   string
	method string
	path   string // with query, relative to the server's root
	header map[string]string
	body   string

	status   int
	respType string
	respBody string

	// want lists substrings, one per expected problem (in any order);
	// none means the exchange must be valid.
	want []string
	// strict: the problems are found in the strict mode only
	// (WithStrictRequests, the SDK's own check); the published contract
	// allows the exchange.
	strict bool
}

// options returns the validator options of the case.
func (c exchangeCase) options() []Option {
	if c.strict {
		return []Option{WithStrictRequests()}
	}
	return nil
}

func (c exchangeCase) request(t *testing.T, base string) *http.Request {
	t.Helper()
	var body io.Reader
	if c.body != "" {
		body = strings.NewReader(c.body)
	}
	req, err := http.NewRequestWithContext(t.Context(), c.method, base+c.path, body)
	require.NoError(t, err)
	req.Header.Set("Authorization", bearer)
	if c.body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range c.header {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	return req
}

func upload(parts ...[3]string) (string, string) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for _, p := range parts { // name, filename, content
		h := textproto.MIMEHeader{}
		if p[1] != "" {
			h.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q; filename=%q`, p[0], p[1]))
			h.Set("Content-Type", "application/octet-stream")
		} else {
			h.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q`, p[0]))
		}
		pw, _ := w.CreatePart(h)
		_, _ = pw.Write([]byte(p[2]))
	}
	_ = w.Close()
	return buf.String(), w.FormDataContentType()
}

func cases() []exchangeCase {
	okUpload, okUploadType := upload([3]string{"description", "", "Q4 Invoice"}, [3]string{"file", "invoice.pdf", "%PDF-1.4 ..."})
	noName, noNameType := upload([3]string{"file", "", "bytes"})
	noFile, noFileType := upload([3]string{"description", "", "only words"})
	extra, extraType := upload([3]string{"file", "a.txt", "x"}, [3]string{"folder", "", "y"})
	twice, twiceType := upload([3]string{"file", "a.txt", "x"}, [3]string{"file", "b.txt", "y"})

	csvBody := "--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"r.csv\"\r\nContent-Type: text/csv\r\n\r\na,b\r\n1,2\r\n--XyZ--\r\n"
	pngBody := "--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"p.png\"\r\nContent-Type: image/png\r\n\r\n\x89PNG\x00\x01\r\n--XyZ--\r\n"

	rec := "/v1/tasks/it-requests/TSK-1"
	c := []exchangeCase{
		// Valid exchanges, one for each operation.
		{name: "token", method: "POST", path: "/oauth/token", body: "grant_type=client_credentials",
			header: map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Authorization": "Basic ZmFrZS1jbGllbnQ6c2VjcmV0"},
			status: 201, respType: "application/json", respBody: `{"access_token":"abc.def","expires_in":3600,"token_type":"Bearer"}`},
		{name: "token 200 with fractional lifetime", method: "POST", path: "/oauth/token", body: "grant_type=client_credentials",
			header: map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Authorization": "Basic ZmFrZS1jbGllbnQ6c2VjcmV0"},
			status: 200, respType: "application/json", respBody: `{"access_token":"abc.def","expires_in":86399.5,"token_type":"bearer"}`},
		{name: "recordList", method: "GET", path: "/v1/tasks/it-requests?first=10&after=Ijf7&filter=Status%3D%3DOpen", status: 200, respType: "application/json",
			respBody: `{"items":[{"data":` + recordJSON + `,"cursor":"Ijf7"}],"total":1,"paging":` + paging + `}`},
		{name: "recordList backward", method: "GET", path: "/v1/elements/assets?last=1000&before=cHJv", status: 200, respType: "application/json",
			respBody: `{"items":[],"total":0,"paging":{"has_next_page":false,"has_previous_page":false}}`},
		{name: "createRecord", method: "POST", path: "/v1/tasks/it-requests", body: recordJSON, status: 201, respType: "application/json", respBody: recordJSON},
		{name: "getRecord", method: "GET", path: rec, status: 200, respType: "application/json", respBody: recordJSON},
		{name: "getRecord with escaped id", method: "GET", path: "/v1/apps/my%20app/REC%2F7", status: 200, respType: "application/json", respBody: recordJSON},
		{name: "updateRecord", method: "PUT", path: rec, body: `{"Status":"Done"}`, status: 200, respType: "application/json", respBody: recordJSON},
		{name: "getRecordRelations", method: "GET", path: rec + "/related-items", status: 200, respType: "application/json", respBody: relatedJSON},
		{name: "createRecordRelatedItems", method: "POST", path: rec + "/related-items", body: `{"id":"ITM-4","alias":"itmanagement"}`, status: 201},
		{name: "deleteRecordRelatedItems", method: "DELETE", path: rec + "/related-items/ITM-4", status: 200},
		{name: "listRecordAttachments", method: "GET", path: rec + "/attachments", status: 200, respType: "application/json", respBody: "[" + attachmentJSON + "," + processingJSON + "]"},
		{name: "getRecordAttachment", method: "GET", path: rec + "/attachments/abc-123", status: 200, respType: "application/json", respBody: attachmentJSON},
		{name: "createRecordAttachment with reply body", method: "POST", path: rec + "/attachments", body: okUpload, header: map[string]string{"Content-Type": okUploadType},
			status: 202, respType: "application/json", respBody: processingJSON},
		{name: "createRecordAttachment without reply body", method: "POST", path: rec + "/attachments", body: okUpload, header: map[string]string{"Content-Type": okUploadType},
			status: 202},
		{name: "createRecordAttachment of a CSV file", method: "POST", path: rec + "/attachments", body: csvBody, header: map[string]string{"Content-Type": "multipart/form-data; boundary=XyZ"},
			status: 202},
		{name: "createRecordAttachment of a PNG file", method: "POST", path: rec + "/attachments", body: pngBody, header: map[string]string{"Content-Type": "multipart/form-data; boundary=XyZ"},
			status: 202},
		{name: "createRecordLink", method: "POST", path: rec + "/attachments/url-links", body: `{"url":"https://example.com/spec","description":"the spec"}`,
			status: 201, respType: "application/json", respBody: `{"url":"https://example.com/spec","description":"the spec"}`},
		{name: "deleteRecordAttachments", method: "DELETE", path: rec + "/attachments/abc-123", status: 200},
		{name: "downloadRecordAttachment", method: "GET", path: rec + "/attachments/abc-123/content", status: 200, respType: "application/octet-stream", respBody: "%PDF-1.4 ..."},
		{name: "listRecordWatchers", method: "GET", path: rec + "/watchers?first=2", status: 200, respType: "application/json", respBody: paged(userWatcherJSON, groupWatcherJSON)},
		{name: "createRecordWatchers", method: "POST", path: rec + "/watchers", body: `{"users":["jane@example.com","ops@example.com"]}`, status: 201},
		{name: "deleteRecordWatchers", method: "DELETE", path: rec + "/watchers", body: `{"users":["jane@example.com"]}`, status: 200},
		{name: "listRecordComments", method: "GET", path: rec + "/comment?last=5", status: 200, respType: "application/json", respBody: paged(commentJSON)},
		{name: "createRecordComment", method: "POST", path: rec + "/comment", body: "Shipment delayed due to weather",
			header: map[string]string{"Content-Type": "text/plain; charset=utf-8"}, status: 201, respType: "text/plain; charset=utf-8", respBody: uuidA},
		{name: "listUsers", method: "GET", path: "/v1/users?first=100&filter=status%3D%3DACTIVE", status: 200, respType: "application/json", respBody: paged(userJSON)},
		{name: "createUser", method: "POST", path: "/v1/users", body: `{"email":"jane@example.com","firstName":"Jane","lastName":"Doe","jobTitle":"Engineer","neverNotify":true}`,
			status: 201, respType: "application/json", respBody: userJSON},
		{name: "getUser", method: "GET", path: "/v1/users/" + uuidA, status: 200, respType: "application/json", respBody: userJSON},
		{name: "deactivateUser", method: "POST", path: "/v1/users/" + uuidA + "/deactivate", status: 200, respType: "application/json",
			respBody: strings.Replace(userJSON, "ACTIVE", "INACTIVE", 1)},
		{name: "listGroups", method: "GET", path: "/v1/groups?first=50", status: 200, respType: "application/json", respBody: paged(groupJSON)},
		{name: "createGroup", method: "POST", path: "/v1/groups",
			body:   `{"name":"Engineering","assignable":true,"watchable":true,"mentionable":true,"approver":false,"dynamic":false,"dataAccess":false,"hidden":false,"tags":["eng"],"userIds":["` + uuidA + `"]}`,
			status: 201, respType: "application/json", respBody: groupJSON},
		{name: "getGroup", method: "GET", path: "/v1/groups/" + uuidB, status: 200, respType: "application/json", respBody: groupJSON},
		{name: "updateGroup", method: "PUT", path: "/v1/groups/" + uuidB, body: `{"dynamic":true,"domains":["example.com"]}`, status: 200, respType: "application/json", respBody: groupJSON},
		{name: "listGroupUsers", method: "GET", path: "/v1/groups/" + uuidB + "/users", status: 200, respType: "application/json", respBody: paged(userJSON)},
		{name: "addUsersToGroup", method: "POST", path: "/v1/groups/" + uuidB + "/users", body: `{"userIds":["` + uuidA + `"]}`, status: 201},
		{name: "removeUsersFromGroup", method: "DELETE", path: "/v1/groups/" + uuidB + "/users", body: `{"userIds":["` + uuidA + `"]}`, status: 200},
		{name: "error reply with any body", method: "GET", path: rec, status: 404, respType: "text/html", respBody: "<h1>gone</h1>"},
		{name: "rate limited", method: "GET", path: "/v1/users", status: 429},

		// Wrong requests.
		{name: "watchers by user id", method: "POST", path: rec + "/watchers", body: `{"userIds":["` + uuidA + `"]}`, status: 201, strict: true,
			want: []string{`createRecordWatchers POST /v1/tasks/it-requests/TSK-1/watchers: request body: /userIds: is not a member of WatcherListInput (strict)`}},
		{name: "watchers not e-mail addresses", method: "DELETE", path: rec + "/watchers", body: `{"users":["u1"]}`, status: 200,
			want: []string{`at "/users/0"`}},
		{name: "comment as JSON", method: "POST", path: rec + "/comment", body: `{"text":"hello"}`, status: 201, respType: "text/plain", respBody: uuidA,
			want: []string{`createRecordComment POST /v1/tasks/it-requests/TSK-1/comment: request body: header Content-Type has unexpected value`}},
		{name: "user without last name", method: "POST", path: "/v1/users", body: `{"email":"jane@example.com","firstName":"Jane"}`, status: 201,
			respType: "application/json", respBody: userJSON, want: []string{`property "lastName" is missing`}},
		{name: "user with a guessed field", method: "POST", path: "/v1/users", body: `{"email":"jane@example.com","firstName":"Jane","lastName":"Doe","sendWelcome":false}`,
			status: 201, respType: "application/json", respBody: userJSON, strict: true, want: []string{`/sendWelcome: is not a member of CreateUserInput`}},
		{name: "related item in the guessed shape", method: "POST", path: rec + "/related-items", body: `{"recordType":"apps","alias":"itm","recordId":"ITM-4"}`, status: 201,
			want: []string{`createRecordRelatedItems`}},
		{name: "record with a number", method: "POST", path: "/v1/tasks/it-requests", body: `{"Priority":3}`, status: 201, respType: "application/json", respBody: recordJSON,
			want: []string{`at "/Priority"`}},
		{name: "record type not published", method: "GET", path: "/v1/records/it-requests/TSK-1", status: 200, respType: "application/json", respBody: recordJSON,
			want: []string{`path parameter "recordType"`}},
		{name: "page size over the bound", method: "GET", path: "/v1/tasks/it-requests?first=1001", status: 200, respType: "application/json", respBody: paged(),
			want: []string{`query parameter "first"`}},
		{name: "page size zero", method: "GET", path: "/v1/groups?last=0", status: 200, respType: "application/json", respBody: paged(),
			want: []string{`query parameter "last"`}},
		{name: "filter where none is published", method: "GET", path: "/v1/groups?filter=name%3D%3DEng", status: 200, respType: "application/json", respBody: paged(groupJSON),
			want: []string{`query parameter "filter" is not published`}},
		{name: "paging on related items", method: "GET", path: rec + "/related-items?first=10", status: 200, respType: "application/json", respBody: relatedJSON,
			want: []string{`query parameter "first": this operation publishes no query parameters`}},
		{name: "group id not a UUID", method: "GET", path: "/v1/groups/g1", status: 200, respType: "application/json", respBody: groupJSON,
			want: []string{`path parameter "groupId"`}},
		{name: "no credentials", method: "GET", path: "/v1/users", header: map[string]string{"Authorization": ""}, status: 401,
			want: []string{`credentials`}},
		{name: "body on a GET", method: "GET", path: rec, body: `{}`, status: 200, respType: "application/json", respBody: recordJSON,
			want: []string{`request body`}},
		{name: "body on deactivate", method: "POST", path: "/v1/users/" + uuidA + "/deactivate", body: `{"reason":"left"}`, status: 200, respType: "application/json", respBody: userJSON,
			want: []string{`request body`}},
		{name: "token request as JSON without its credentials", method: "POST", path: "/oauth/token", body: `{"grant_type":"client_credentials"}`,
			header: map[string]string{"Authorization": "Basic ZmFrZS1jbGllbnQ6c2VjcmV0"}, status: 200, respType: "application/json", respBody: `{"access_token":"abc.def","expires_in":3600,"token_type":"Bearer"}`,
			want: []string{`property "client_id" is missing`, `is missing`}},
		{name: "token request with credentials in the header and the body", method: "POST", path: "/oauth/token", body: "grant_type=client_credentials&client_id=fake-client&client_secret=secret",
			header: map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Authorization": "Basic ZmFrZS1jbGllbnQ6c2VjcmV0"},
			status: 200, respType: "application/json", respBody: `{"access_token":"abc.def","expires_in":3600,"token_type":"Bearer"}`,
			want: []string{`credentials: in both the Basic header and the body`}},
		{name: "token request without Basic", method: "POST", path: "/oauth/token", body: "grant_type=client_credentials",
			header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, status: 200, respType: "application/json", respBody: `{"access_token":"abc.def","expires_in":3600,"token_type":"Bearer"}`,
			want: []string{`credentials`}},
		{name: "token endpoint under the API base", method: "POST", path: "/v1/oauth/token", body: "grant_type=client_credentials",
			header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, status: 200,
			want: []string{`(no operation) POST /v1/oauth/token`}},
		{name: "unknown route", method: "GET", path: rec + "/history", status: 200, respType: "application/json", respBody: `[]`,
			want: []string{`(no operation) GET /v1/tasks/it-requests/TSK-1/history: no operation in the document matches`}},
		{name: "unpublished method", method: "PATCH", path: rec, body: `{}`, status: 200, respType: "application/json", respBody: recordJSON,
			want: []string{`publishes no PATCH`}},
		{name: "outside the bases", method: "GET", path: "/v2/users", status: 200, respType: "application/json", respBody: paged(),
			want: []string{`neither under the API base`}},
		{name: "upload file part without a file name", method: "POST", path: rec + "/attachments", body: noName, header: map[string]string{"Content-Type": noNameType}, status: 202,
			want: []string{`the "file" part has no filename`}},
		{name: "upload without a file part", method: "POST", path: rec + "/attachments", body: noFile, header: map[string]string{"Content-Type": noFileType}, status: 202,
			want: []string{`property "file" is missing`}},
		{name: "upload with an unpublished part", method: "POST", path: rec + "/attachments", body: extra, header: map[string]string{"Content-Type": extraType}, status: 202,
			want: []string{`folder`}},
		{name: "upload with two files", method: "POST", path: rec + "/attachments", body: twice, header: map[string]string{"Content-Type": twiceType}, status: 202,
			want: []string{`part "file" appears 2 times`}},
		{name: "upload as JSON", method: "POST", path: rec + "/attachments", body: `{"file":"aGVsbG8="}`, status: 202,
			want: []string{`Content-Type`}},

		{name: "token request with an unpublished form field", method: "POST", path: "/oauth/token", body: "grant_type=client_credentials&scope=all",
			header: map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Authorization": "Basic ZmFrZS1jbGllbnQ6c2VjcmV0"},
			status: 200, respType: "application/json", respBody: `{"access_token":"abc.def","expires_in":3600,"token_type":"Bearer"}`,
			strict: true, want: []string{`form field "scope" is not published`}},
		{name: "group with a guessed description", method: "POST", path: "/v1/groups", body: `{"name":"Eng","description":"engineers"}`,
			status: 201, respType: "application/json", respBody: groupJSON, strict: true, want: []string{`/description: is not a member of GroupRequest`}},

		// Wrong replies.
		{name: "record reply without a body", method: "GET", path: rec, status: 200,
			want: []string{`reply 200 has no body; the document publishes a body of type application/json`}},
		{name: "state in lower case", method: "GET", path: rec + "/attachments/abc-124", status: 200, respType: "application/json",
			respBody: strings.Replace(processingJSON, "PROCESSING", "processing", 1), want: []string{`at "/state"`}},
		{name: "attachment without content URL", method: "GET", path: rec + "/attachments", status: 200, respType: "application/json",
			respBody: `[` + strings.Replace(attachmentJSON, `"contentUrl"`, `"url"`, 1) + `]`, want: []string{`property "contentUrl" is missing`}},
		{name: "paged list without paging", method: "GET", path: "/v1/users", status: 200, respType: "application/json",
			respBody: `{"items":[` + userJSON + `],"total":1}`, want: []string{`property "paging" is missing`}},
		{name: "users as a bare array", method: "GET", path: "/v1/groups/" + uuidB + "/users", status: 200, respType: "application/json",
			respBody: `[` + userJSON + `]`, want: []string{`listGroupUsers GET /v1/groups/` + uuidB + `/users: reply`}},
		{name: "create answered 200", method: "POST", path: "/v1/tasks/it-requests", body: recordJSON, status: 200, respType: "application/json", respBody: recordJSON,
			want: []string{`reply status 200 is not published for this operation (published: 201, 400,`}},
		{name: "delete answered 204", method: "DELETE", path: rec + "/related-items/ITM-4", status: 204,
			want: []string{`reply status 204 is not published`}},
		{name: "upload answered 201", method: "POST", path: rec + "/attachments", body: okUpload, header: map[string]string{"Content-Type": okUploadType},
			status: 201, respType: "application/json", respBody: processingJSON, want: []string{`reply status 201 is not published`}},
		{name: "comment reply as JSON", method: "POST", path: rec + "/comment", body: "hi", header: map[string]string{"Content-Type": "text/plain"},
			status: 201, respType: "application/json", respBody: commentJSON, want: []string{`reply: response header Content-Type has unexpected value`}},
		{name: "user without status", method: "GET", path: "/v1/users/" + uuidA, status: 200, respType: "application/json",
			respBody: `{"id":"` + uuidA + `","email":"jane@example.com","firstName":"Jane","lastName":"Doe","active":true}`, want: []string{`property "status" is missing`}},
		{name: "user id not a UUID", method: "GET", path: "/v1/users/" + uuidA, status: 200, respType: "application/json",
			respBody: strings.Replace(userJSON, uuidA, "u1", 1), want: []string{`at "/id"`}},
		{name: "group with a description instead of flags", method: "GET", path: "/v1/groups/" + uuidB, status: 200, respType: "application/json",
			respBody: `{"id":"` + uuidB + `","name":"Engineering","description":"eng"}`,
			want:     []string{`"assignable" is missing`, `"watchable" is missing`, `"mentionable" is missing`, `"managed" is missing`, `"dynamic" is missing`}},
		{name: "user watcher without e-mail", method: "GET", path: rec + "/watchers", status: 200, respType: "application/json",
			respBody: paged(`{"id":"` + uuidA + `","target":{"type":"User","id":"` + uuidB + `","firstName":"Jane","lastName":"Doe"}}`),
			want:     []string{`at "/items/0/target"`}},
		{name: "watcher of an unknown kind", method: "GET", path: rec + "/watchers", status: 200, respType: "application/json",
			respBody: paged(`{"id":"` + uuidA + `","target":{"type":"Robot","id":"` + uuidB + `"}}`),
			want:     []string{`at "/items/0/target"`}},
		{name: "related kind not in capitals", method: "GET", path: rec + "/related-items", status: 200, respType: "application/json",
			respBody: strings.Replace(relatedJSON, `"TASK"`, `"tasks"`, 1), want: []string{`at "/items/0/type"`}},
		{name: "body on a created-without-body reply", method: "POST", path: rec + "/related-items", body: `{"id":"ITM-4"}`, status: 201,
			respType: "application/json", respBody: `{"id":"ITM-4"}`, want: []string{`reply 201 must have no body, got 14 bytes`}},
		{name: "download as JSON", method: "GET", path: rec + "/attachments/abc-123/content", status: 200, respType: "application/json", respBody: `{}`,
			want: []string{`Content-Type`}},
		{name: "token reply with a string lifetime", method: "POST", path: "/oauth/token", body: "grant_type=client_credentials",
			header: map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Authorization": "Basic ZmFrZS1jbGllbnQ6c2VjcmV0"},
			status: 200, respType: "application/json", respBody: `{"access_token":"abc.def","expires_in":"3600","token_type":"Bearer"}`,
			want: []string{`at "/expires_in"`}},
		{name: "token reply without token", method: "POST", path: "/oauth/token", body: "grant_type=client_credentials",
			header: map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Authorization": "Basic ZmFrZS1jbGllbnQ6c2VjcmV0"},
			status: 200, respType: "application/json", respBody: `{"expires_in":3600,"token_type":"Bearer"}`,
			want: []string{`property "access_token" is missing`}},
		{name: "comment with a bad time", method: "GET", path: rec + "/comment", status: 200, respType: "application/json",
			respBody: paged(strings.Replace(commentJSON, "2026-04-04T03:25:38.045Z", "04/04/2026", 1)), want: []string{`at "/items/0/createdAt"`}},
	}
	c = append(c, configCasesA()...)
	c = append(c, elementsCases()...)
	c = append(c, appsCases()...)
	c = append(c, flowsCases()...)
	c = append(c, agentsCases()...)
	c = append(c, skillsCases()...)
	c = append(c, tableCases()...)
	c = append(c, searchTableCases()...)
	return c
}

// recorder is a testing.TB that keeps what the transport reports.
type recorder struct {
	testing.TB
	mu   sync.Mutex
	msgs []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.msgs = append(r.msgs, fmt.Sprintf(format, args...))
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	r.TB.FailNow()
}

func (r *recorder) messages() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.msgs...)
}

// replay is a server that answers every request with the case's reply
// and remembers the body it received.
type replay struct {
	mu   sync.Mutex
	c    exchangeCase
	got  []byte
	seen bool
}

func (s *replay) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	c := s.c
	s.got, s.seen = body, true
	s.mu.Unlock()
	if c.respType != "" {
		w.Header().Set("Content-Type", c.respType)
	}
	w.WriteHeader(c.status)
	_, _ = io.WriteString(w, c.respBody)
}

func (s *replay) set(c exchangeCase) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.c, s.got, s.seen = c, nil, false
}

func (s *replay) received() ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.got, s.seen
}

// checkFindings requires one finding per wanted substring (in any order)
// and nothing else.
func checkFindings(t *testing.T, want, got []string) {
	t.Helper()
	if len(want) == 0 {
		assert.Empty(t, got, "a valid exchange must pass")
		return
	}
	require.NotEmpty(t, got, "a wrong exchange must fail")
	for _, w := range want {
		found := false
		for _, g := range got {
			if strings.Contains(g, w) {
				found = true
				break
			}
		}
		assert.True(t, found, "no finding contains %q; findings:\n%s", w, strings.Join(got, "\n"))
	}
	for _, g := range got {
		assert.True(t, strings.HasPrefix(g, "contract: "), "finding %q", g)
	}
}

func TestTransportTable(t *testing.T) {
	srv := &replay{}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)

	for _, c := range cases() {
		t.Run(c.name, func(t *testing.T) {
			srv.set(c)
			rec := &recorder{TB: t}
			hc := &http.Client{Transport: NewTransport(rec, ts.Client().Transport, c.options()...)}
			resp, err := hc.Do(c.request(t, ts.URL))
			require.NoError(t, err)
			got, err := io.ReadAll(resp.Body)
			require.NoError(t, err)
			require.NoError(t, resp.Body.Close())

			assert.Equal(t, c.status, resp.StatusCode)
			assert.Equal(t, c.respBody, string(got), "the caller reads the reply's body intact")
			sent, seen := srv.received()
			assert.True(t, seen, "the request is sent, valid or not")
			assert.Equal(t, c.body, string(sent), "the server receives the request's body intact")

			checkFindings(t, c.want, rec.messages())
		})
	}
}

func TestValidateTable(t *testing.T) {
	for _, c := range cases() {
		t.Run(c.name, func(t *testing.T) {
			req := c.request(t, "https://api.example.test")
			resp := &http.Response{StatusCode: c.status, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(c.respBody)), Request: req}
			if c.respType != "" {
				resp.Header.Set("Content-Type", c.respType)
			}
			v, err := New(c.options()...)
			require.NoError(t, err)
			if c.strict {
				// The published contract allows what the strict mode refuses.
				loose := c.request(t, "https://api.example.test")
				looseResp := &http.Response{StatusCode: c.status, Header: resp.Header.Clone(), Body: io.NopCloser(strings.NewReader(c.respBody)), Request: loose}
				require.NoError(t, Validate(loose, looseResp))
			}
			err = v.Validate(req, resp)

			var got []string
			if err != nil {
				var v *Violation
				require.ErrorAs(t, err, &v)
				got = v.Messages()
				assert.Equal(t, c.method, v.Method)
				assert.Equal(t, strings.SplitN(c.path, "?", 2)[0], v.Path)
			}
			checkFindings(t, c.want, got)

			// Both bodies are put back.
			if c.body != "" {
				b, err := io.ReadAll(req.Body)
				require.NoError(t, err)
				assert.Equal(t, c.body, string(b))
			}
			b, err := io.ReadAll(resp.Body)
			require.NoError(t, err)
			assert.Equal(t, c.respBody, string(b))
		})
	}
}

// TestEveryOperationHasAValidCase makes sure the table covers the whole
// document: each operation has an exchange that passes (Seen counts the
// operations of the valid cases only).
func TestEveryOperationHasAValidCase(t *testing.T) {
	v, err := New()
	require.NoError(t, err)
	assert.Empty(t, v.Seen())
	for _, c := range cases() {
		if len(c.want) > 0 {
			continue
		}
		req := c.request(t, "https://api.example.test")
		resp := &http.Response{StatusCode: c.status, Header: http.Header{"Content-Type": {c.respType}}, Body: io.NopCloser(strings.NewReader(c.respBody))}
		require.NoError(t, v.Validate(req, resp), c.name)
	}
	seen := v.Seen()
	for _, id := range v.Operations() {
		if !slices.Contains(seen, id) {
			t.Errorf("the operation %s has no valid case: add one to the cases of its family", id)
		}
	}
	var ids []string
	for _, o := range op.All() {
		ids = append(ids, string(o.ID))
	}
	assert.ElementsMatch(t, ids, v.Operations(), "the operation table is the document's (go generate ./internal/op)")
}

// TestEveryTagIsDeclared: each operation's tags are in the document's
// top-level tags list, once.
func TestEveryTagIsDeclared(t *testing.T) {
	l, err := loadDocument()
	require.NoError(t, err)
	declared := map[string]int{}
	for _, tag := range l.doc.Tags {
		declared[tag.Name]++
	}
	for path, item := range l.doc.Paths.Map() {
		for method, op := range item.Operations() {
			for _, tag := range op.Tags {
				assert.Equal(t, 1, declared[tag], "%s %s: tag %q declared once", method, path, tag)
			}
		}
	}
}
