package workflowtest_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/internal/contract"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// TestContractConfigurationA sends every operation of the workspace
// configuration's domains, automations and views through the fake, checked against the contract
// by a validator of its own, and asserts that each was seen.
func TestContractConfigurationA(t *testing.T) {
	ctx := t.Context()
	srv := workflowtest.Start(t)
	v, err := contract.New()
	require.NoError(t, err)
	hc := srv.HTTPClient()
	hc.Transport = v.Transport(t, hc.Transport)
	ws := admin.New(srv.Client(workflow.WithHTTPClient(hc)))

	d, err := ws.Domains.Create(ctx, admin.DomainRequest{Email: &admin.EmailDomain{Domain: new("mail.example.com")}})
	require.NoError(t, err)
	_, err = ws.Domains.Update(ctx, d.ID.Value(), admin.DomainRequest{Email: &admin.EmailDomain{Domain: new("send.example.com")}})
	require.NoError(t, err)
	g := srv.AddDynamicGroup("Partners", "example.com")
	_, err = ws.Domains.Groups.Add(ctx, g, []string{"example.org"})
	require.NoError(t, err)
	_, err = ws.Domains.Groups.Remove(ctx, g, []string{"example.org"})
	require.NoError(t, err)

	srv.Define(workflow.Apps, "itm")
	def := admin.Automation(`{"name":"Escalate"}`)
	_, err = ws.Automations.Validate(ctx, workflow.Apps, "itm", def)
	require.NoError(t, err)
	a, err := ws.Automations.Create(ctx, workflow.Apps, "itm", def)
	require.NoError(t, err)
	id := a.ID()
	_, err = ws.Automations.List(ctx, workflow.Apps, "itm")
	require.NoError(t, err)
	_, err = ws.Automations.Get(ctx, workflow.Apps, "itm", id)
	require.NoError(t, err)
	_, err = ws.Automations.Update(ctx, workflow.Apps, "itm", id, def)
	require.NoError(t, err)
	require.NoError(t, ws.Automations.Delete(ctx, workflow.Apps, "itm", id))

	srv.AddGroup("IT")
	view := admin.ViewRequest{View: admin.ViewInput{List: &admin.ViewConfig{Name: new("Open")}}, Share: &admin.ViewShareInput{Groups: []string{"IT"}}}
	_, err = ws.Views.Create(ctx, "itm", "open", view)
	require.NoError(t, err)
	_, err = ws.Views.Update(ctx, "itm", "open", view)
	require.NoError(t, err)
	_, err = ws.Views.Get(ctx, "itm", "open")
	require.NoError(t, err)
	_, err = ws.Views.List(ctx, "itm", &workflow.ListOptions{First: 5})
	require.NoError(t, err)

	assert.Subset(t, v.Seen(), []string{
		"addDomainsToGroup", "removeDomainsFromGroup", "createOrganizationDomain", "updateOrganizationDomain",
		"listAutomations", "createAutomation", "validateAutomation", "getAutomation", "updateAutomation", "deleteAutomation",
		"listViews", "createView", "getView", "updateView",
	})
}
