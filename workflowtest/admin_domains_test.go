package workflowtest

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOrganizationDomains(t *testing.T) {
	a := newAPI(t)
	res := a.do(http.MethodPost, "/domains", []byte(`{"managedDomain":{"domain":"example.com","name":"Example","sso":true}}`))
	require.Equal(t, http.StatusCreated, res.status, "%s", res.body)
	var got map[string]any
	res.decode(&got)
	id := seqUUID(uuidOrgDomain, 1)
	assert.Equal(t, map[string]any{"id": id, "type": "MANAGED", "domain": "example.com", "name": "Example",
		"internal": false, "approved": false, "selfRegistration": false, "sso": true}, got)

	res = a.do(http.MethodPost, "/domains", []byte(`{"emailDomain":{"domain":"mail.example.com"}}`))
	require.Equal(t, http.StatusCreated, res.status, "%s", res.body)
	got = nil
	res.decode(&got)
	assert.Equal(t, map[string]any{"id": seqUUID(uuidOrgDomain, 2), "type": "EMAIL", "domain": "mail.example.com"}, got)

	res = a.do(http.MethodPut, "/domains/"+id, []byte(`{"managedDomain":{"approved":true}}`))
	require.Equal(t, http.StatusOK, res.status, "%s", res.body)
	got = nil
	res.decode(&got)
	assert.Equal(t, true, got["approved"])
	assert.Equal(t, "Example", got["name"], "what the body leaves out is kept")
	assert.Equal(t, []OrganizationDomainInfo{
		{ID: id, Type: "MANAGED", Domain: "example.com", Name: "Example", Approved: true, SSO: true},
		{ID: seqUUID(uuidOrgDomain, 2), Type: "EMAIL", Domain: "mail.example.com"},
	}, a.srv.OrganizationDomains())

	for _, tc := range []struct {
		method, path, body string
		status             int
		want               string
	}{
		{"POST", "/domains", `nonsense`, 400, "malformed"},
		{"POST", "/domains", `{"emailDomain":{"domain":null}}`, 400, "invalid /emailDomain/domain: must be a string, not null"},
		{"POST", "/domains", `{"emailDomain":{"domain":7}}`, 400, "invalid /emailDomain/domain: must be a string"},
		{"POST", "/domains", `{"managedDomain":{"domain":"b.com","sso":"yes"}}`, 400, "invalid /managedDomain/sso: must be a boolean"},
		{"POST", "/domains", `{}`, 422, "invalid body: must have exactly one of emailDomain, managedDomain"},
		{"POST", "/domains", `{"emailDomain":{}}`, 422, "needs its domain name"},
		{"POST", "/domains", `{"emailDomain":{"domain":"ops@example.com"}}`, 422, "not a domain name"},
		{"POST", "/domains", `{"emailDomain":{"domain":"EXAMPLE.com"}}`, 422, "exists already"},
		{"POST", "/domains", `{"managedDomain":{"domain":"b.com","sso":true,"selfRegistration":true}}`, 422, "invalid /managedDomain: sso and selfRegistration are mutually exclusive"},
		{"PUT", "/domains/" + id, `{"managedDomain":{"selfRegistration":true}}`, 422, "exclude each other"},
		{"PUT", "/domains/" + id, `{"emailDomain":{"domain":"c.com"}}`, 422, "cannot change"},
		{"PUT", "/domains/" + id, `{"managedDomain":{"domain":"mail.example.com"}}`, 422, "exists already"},
		{"PUT", "/domains/" + seqUUID(uuidOrgDomain, 9), `{"emailDomain":{}}`, 404, "no domain"},
	} {
		assert.Contains(t, expectError(t, a.do(tc.method, tc.path, []byte(tc.body)), tc.status), tc.want, "%s %s %s", tc.method, tc.path, tc.body)
	}
	assert.Len(t, a.srv.OrganizationDomains(), 2, "no failed request changed anything")
	assert.False(t, a.srv.OrganizationDomains()[0].SelfRegistration)

	denied := a.srv.AddUser("no@example.com", "No", "Admin")
	a.srv.DenyAdmin(denied.UserID)
	d := a.as(denied)
	expectError(t, d.do(http.MethodPost, "/domains", []byte(`{"emailDomain":{"domain":"d.com"}}`)), 403)
	expectError(t, d.do(http.MethodPut, "/domains/"+id, []byte(`{"emailDomain":{}}`)), 403)

	a.srv.Reset()
	assert.Empty(t, a.srv.OrganizationDomains())
}

func TestGroupDomains(t *testing.T) {
	a := newAPI(t)
	dyn := a.srv.AddDynamicGroup("Partners", "example.com")
	plain := a.srv.AddGroup("Team")

	res := a.do(http.MethodPost, "/groups/"+dyn+"/domains", []byte(`{"domains":["example.org","EXAMPLE.com"]}`))
	require.Equal(t, http.StatusCreated, res.status, "%s", res.body)
	var got []domainJSON
	res.decode(&got)
	assert.Equal(t, []domainJSON{{ID: did(1), Domain: "example.com"}, {ID: did(2), Domain: "example.org"}}, got,
		"the group's domains after the change; a domain it has in another case is kept as it is")

	res = a.do(http.MethodDelete, "/groups/"+dyn+"/domains", []byte(`{"domains":["Example.com","example.net"]}`))
	require.Equal(t, http.StatusOK, res.status, "%s", res.body)
	got = nil
	res.decode(&got)
	assert.Equal(t, []domainJSON{{ID: did(2), Domain: "example.org"}}, got)
	g, _ := a.srv.Group(dyn)
	assert.Equal(t, []string{"example.org"}, g.Domains)

	res = a.do(http.MethodDelete, "/groups/"+dyn+"/domains", []byte(`{"domains":["example.org"]}`))
	require.Equal(t, http.StatusOK, res.status)
	assert.Equal(t, "[]\n", string(res.body), "no domain left is an empty list")

	for _, tc := range []struct {
		method, group, body string
		status              int
		want                string
	}{
		{"POST", dyn, `nonsense`, 400, "malformed"},
		{"POST", dyn, `{}`, 400, "invalid /domains: is required"},
		{"POST", dyn, `{"domains":"example.com"}`, 400, "invalid /domains: must be an array"},
		{"POST", dyn, `{"domains":[null]}`, 400, "invalid /domains/0: must be a string, not null"},
		{"POST", dyn, `{"domains":[]}`, 422, "at least one"},
		{"DELETE", dyn, `{"domains":["a@b.com"]}`, 422, "not a domain name"},
		{"POST", plain, `{"domains":["example.com"]}`, 422, "not dynamic"},
		{"POST", gid(9), `{"domains":["example.com"]}`, 404, "no group"},
		{"DELETE", gid(9), `{"domains":["example.com"]}`, 404, "no group"},
	} {
		assert.Contains(t, expectError(t, a.do(tc.method, "/groups/"+tc.group+"/domains", []byte(tc.body)), tc.status), tc.want, "%s %s", tc.method, tc.body)
	}
	expectError(t, a.get("/groups/"+dyn+"/domains"), 405)
}
