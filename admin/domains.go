package admin

import (
	"context"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// DomainsService configures the organisation's domains: POST /domains and
// PUT /domains/{domainId}, and, as Groups, the e-mail domains of dynamic
// groups. The service publishes no list or get of organisation domains.
type DomainsService struct {
	client *workflow.Client
	// Groups adds and removes the e-mail domains that assign users to a
	// dynamic group.
	Groups *GroupDomainsService
}

// GroupDomainsService adds and removes the e-mail domains of a dynamic
// group: POST and DELETE /groups/{groupId}/domains.
type GroupDomainsService struct{ client *workflow.Client }

// DomainType is the kind of an organisation domain: DomainManaged or
// DomainEmail, as the service publishes them. Other values are kept as
// sent.
type DomainType string

// The domain types the service publishes.
const (
	DomainManaged DomainType = "MANAGED" // a domain the organisation manages (sign-in, SSO)
	DomainEmail   DomainType = "EMAIL"   // an e-mail sending domain
)

// Create creates an organisation domain and returns it (201):
// POST /domains. Exactly one of r.Managed and r.Email is set, and SSO and
// SelfRegistration are not both true (the document's rules); a broken
// rule is a *workflow.ValidationError, and nothing is sent. Like every
// POST, it is not retried after a 5xx or a dropped connection.
func (s *DomainsService) Create(ctx context.Context, r DomainRequest, reqOpts ...workflow.RequestOption) (*Domain, error) {
	return call[Domain](ctx, s.client, at(op.CreateOrganizationDomain), r, reqOpts)
}

// Update changes an organisation domain and returns it (200):
// PUT /domains/{domainId}. The rules are Create's; only what r sets is
// sent. The service does not publish whether a member the body leaves
// out is reset or kept (the fake keeps it), nor whether a domain may
// change its type (the fake refuses it with 422).
func (s *DomainsService) Update(ctx context.Context, domainID string, r DomainRequest, reqOpts ...workflow.RequestOption) (*Domain, error) {
	return call[Domain](ctx, s.client, at(op.UpdateOrganizationDomain, "domainID", domainID), r, reqOpts)
}

// Add adds e-mail domains to a dynamic group: POST
// /groups/{groupId}/domains with {"domains": [...]} (201). It returns
// the list the service answers with (GroupDomainList; the fake answers
// the group's domains after the change).
func (s *GroupDomainsService) Add(ctx context.Context, groupID string, domains []string, reqOpts ...workflow.RequestOption) ([]workflow.GroupDomain, error) {
	return s.change(ctx, op.AddDomainsToGroup, groupID, domains, reqOpts)
}

// Remove removes e-mail domains from a dynamic group: DELETE
// /groups/{groupId}/domains with {"domains": [...]} (200). It returns
// the list the service answers with (the fake: the group's domains that
// remain).
func (s *GroupDomainsService) Remove(ctx context.Context, groupID string, domains []string, reqOpts ...workflow.RequestOption) ([]workflow.GroupDomain, error) {
	return s.change(ctx, op.RemoveDomainsFromGroup, groupID, domains, reqOpts)
}

func (s *GroupDomainsService) change(ctx context.Context, id op.ID, groupID string, domains []string, reqOpts []workflow.RequestOption) ([]workflow.GroupDomain, error) {
	out, err := call[[]workflow.GroupDomain](ctx, s.client, at(id, "groupID", groupID), GroupDomainsInput{Domains: domains}, reqOpts)
	if err != nil {
		return nil, err
	}
	return *out, nil
}
