package admin_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

func TestDomainsThroughTheFake(t *testing.T) {
	ctx := t.Context()
	srv := workflowtest.Start(t)
	ws := admin.New(srv.Client())

	d, err := ws.Domains.Create(ctx, admin.DomainRequest{Managed: &admin.ManagedDomain{Domain: new("example.com"), Name: new("Example"), SSO: new(true), StartURL: new("https://sso.example.com")}})
	require.NoError(t, err)
	assert.Equal(t, admin.DomainManaged, d.Type.Value())
	assert.Equal(t, "example.com", d.Domain.Value())
	assert.True(t, d.SSO.Value())
	assert.Len(t, d.ID.Value(), 36)

	d, err = ws.Domains.Update(ctx, d.ID.Value(), admin.DomainRequest{Managed: &admin.ManagedDomain{SSO: new(false), SelfRegistration: new(true)}})
	require.NoError(t, err)
	assert.False(t, d.SSO.Value())
	assert.True(t, d.SelfRegistration.Value())
	assert.Equal(t, "Example", d.Name.Value(), "what the update leaves out is kept")

	mail, err := ws.Domains.Create(ctx, admin.DomainRequest{Email: &admin.EmailDomain{Domain: new("mail.example.com")}})
	require.NoError(t, err)
	assert.Equal(t, admin.DomainEmail, mail.Type.Value())
	assert.Equal(t, []workflowtest.OrganizationDomainInfo{
		{ID: d.ID.Value(), Type: "MANAGED", Domain: "example.com", Name: "Example", StartURL: "https://sso.example.com", SelfRegistration: true},
		{ID: mail.ID.Value(), Type: "EMAIL", Domain: "mail.example.com"},
	}, srv.OrganizationDomains())

	_, err = ws.Domains.Create(ctx, admin.DomainRequest{Email: &admin.EmailDomain{Domain: new("Mail.Example.com")}})
	assert.ErrorIs(t, err, workflow.ErrUnprocessable, "a domain exists once")
	_, err = ws.Domains.Update(ctx, mail.ID.Value(), admin.DomainRequest{Managed: &admin.ManagedDomain{Name: new("x")}})
	assert.ErrorIs(t, err, workflow.ErrUnprocessable, "a domain keeps its type")
	_, err = ws.Domains.Update(ctx, "20000000-0000-4000-8000-000000000099", admin.DomainRequest{Email: &admin.EmailDomain{Domain: new("x.example.com")}})
	assert.ErrorIs(t, err, workflow.ErrNotFound)

	group := srv.AddDynamicGroup("Partners", "partner.example")
	ds, err := ws.Domains.Groups.Add(ctx, group, []string{"example.org"})
	require.NoError(t, err)
	assert.Equal(t, []string{"partner.example", "example.org"}, domainNames(ds))
	ds, err = ws.Domains.Groups.Remove(ctx, group, []string{"partner.example"})
	require.NoError(t, err)
	assert.Equal(t, []string{"example.org"}, domainNames(ds))
	g, _ := srv.Group(group)
	assert.Equal(t, []string{"example.org"}, g.Domains)

	_, err = ws.Domains.Groups.Add(ctx, srv.AddGroup("Team"), []string{"example.org"})
	assert.ErrorIs(t, err, workflow.ErrUnprocessable, "a group with members has no domains")
	_, err = ws.Domains.Groups.Remove(ctx, "10000000-0000-4000-8000-000000000099", []string{"example.org"})
	assert.ErrorIs(t, err, workflow.ErrNotFound)
}

func domainNames(ds []workflow.GroupDomain) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.Domain
	}
	return out
}
