package admin

import (
	"context"

	"github.com/seed-a15e58aa/workflow-go/internal/jsonmodel"

	"github.com/go-json-experiment/json/jsontext"

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

// Domain is an organisation domain: the service's OrganizationDomain
// {"id", "type", "domain", "name", "internal", "approved", "startUrl",
// "selfRegistration", "sso"}. The members after Domain are published for
// managed domains only.
//
// Members the SDK does not model are kept in Extra and written back when
// the domain is encoded again, with encoding/json as with
// github.com/go-json-experiment/json.
type Domain struct {
	// ID identifies the domain (a UUID) in PUT /domains/{domainId}.
	ID Opt[string] `json:"id,omitzero"`
	// Type is DomainManaged or DomainEmail, as sent.
	Type Opt[DomainType] `json:"type,omitzero"`
	// Domain is the domain name, e.g. "example.com".
	Domain Opt[string] `json:"domain,omitzero"`
	// Name is the display name.
	Name Opt[string] `json:"name,omitzero"`
	// Internal reports whether the domain's users are internal to the
	// organisation.
	Internal Opt[bool] `json:"internal,omitzero"`
	// Approved reports whether the domain is approved.
	Approved Opt[bool] `json:"approved,omitzero"`
	// StartURL is the SSO start URL.
	StartURL Opt[string] `json:"startUrl,omitzero"`
	// SelfRegistration reports whether users may register themselves.
	SelfRegistration Opt[bool] `json:"selfRegistration,omitzero"`
	// SSO reports whether single sign-on is on.
	SSO Opt[bool] `json:"sso,omitzero"`
	// Extra holds every member that the fields above do not model, as
	// raw JSON.
	Extra map[string]jsontext.Value `json:",embed"`
}

// UnmarshalJSON reads a domain object; unknown members go to Extra.
func (d *Domain) UnmarshalJSON(data []byte) error { return jsonmodel.Unmarshal(data, d) }

// MarshalJSON writes the domain object with its Extra members.
func (d Domain) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(d) }

// DomainRequest is the body of DomainsService.Create and Update: the
// service's OrganizationDomainRequest. Exactly one of Managed and Email
// is set.
type DomainRequest struct {
	// Managed is a managed domain (ManagedDomainInput).
	Managed *ManagedDomain `json:"managedDomain,omitzero"`
	// Email is an e-mail sending domain (EmailDomainInput).
	Email *EmailDomain `json:"emailDomain,omitzero"`
	// Extra holds further members of the body, for members the service
	// may add later. A key that names a member above is an error, and
	// nothing is sent.
	Extra map[string]jsontext.Value `json:",embed"`
}

// ManagedDomain is a managed domain to create or change. As in every
// request body of this package, a nil pointer leaves the member out (an
// Update keeps its value), and a pointer to an empty value (new(""),
// new(false)) sends it empty.
type ManagedDomain struct {
	// Domain is the domain name, e.g. "example.com".
	Domain *string `json:"domain,omitzero"`
	// Name is the display name.
	Name *string `json:"name,omitzero"`
	// Internal: the domain's users are internal to the organisation.
	Internal *bool `json:"internal,omitzero"`
	// Approved: the domain is approved.
	Approved *bool `json:"approved,omitzero"`
	// StartURL is the SSO start URL.
	StartURL *string `json:"startUrl,omitzero"`
	// SelfRegistration: users may register themselves. Excludes SSO.
	SelfRegistration *bool `json:"selfRegistration,omitzero"`
	// SSO: single sign-on is on. Excludes SelfRegistration.
	SSO *bool `json:"sso,omitzero"`
	// Extra holds further members, as for DomainRequest.Extra.
	Extra map[string]jsontext.Value `json:",embed"`
}

// EmailDomain is an e-mail sending domain to create or change.
type EmailDomain struct {
	// Domain is the sending domain, e.g. "mail.example.com".
	Domain *string `json:"domain,omitzero"`
	// Extra holds further members, as for DomainRequest.Extra.
	Extra map[string]jsontext.Value `json:",embed"`
}

// MarshalJSON writes the body with its Extra members.
func (r DomainRequest) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(r) }

// UnmarshalJSON reads the body; unknown members go to Extra, and a null
// member is an error.
func (r *DomainRequest) UnmarshalJSON(data []byte) error { return jsonmodel.UnmarshalBody(data, r) }

// MarshalJSON writes the managed domain with its Extra members.
func (m ManagedDomain) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(m) }

// UnmarshalJSON reads the managed domain, as DomainRequest's does.
func (m *ManagedDomain) UnmarshalJSON(data []byte) error { return jsonmodel.UnmarshalBody(data, m) }

// MarshalJSON writes the e-mail domain with its Extra members.
func (e EmailDomain) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(e) }

// UnmarshalJSON reads the e-mail domain, as DomainRequest's does.
func (e *EmailDomain) UnmarshalJSON(data []byte) error { return jsonmodel.UnmarshalBody(data, e) }

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

// groupDomains is the body of GroupDomainsService.Add and Remove: the
// service's GroupDomainsInput.
type groupDomains struct {
	Domains []string `json:"domains"`
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
	out, err := call[[]workflow.GroupDomain](ctx, s.client, at(id, "groupID", groupID), groupDomains{Domains: domains}, reqOpts)
	if err != nil {
		return nil, err
	}
	return *out, nil
}
