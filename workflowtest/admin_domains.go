package workflowtest

import (
	"net/http"
	"slices"
	"strings"

	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// The domains of the workspace configuration: the organisation's domains
// (POST /domains, PUT /domains/{domainId}) and the e-mail domains of
// dynamic groups (POST and DELETE /groups/{groupId}/domains). They sit
// with the users and groups: a user denied those routes (DenyAdmin) gets
// 403.
//
// Bodies are checked as every body is (readBody): the schema (400), then
// the published rules exactly one of managedDomain and emailDomain and sso
// not with selfRegistration (422). The handlers add the rules that need
// state (422): sso and selfRegistration against what the domain has, a
// domain name taken, a type that would change, domains of a group that
// is not dynamic; nothing changes on a refusal.

// domainsState is the organisation's domains; its zero value is empty.
type domainsState struct {
	list []*orgDomain // in creation order
	n    uint64       // ids handed out
}

// orgDomain is an organisation domain (the service's OrganizationDomain).
type orgDomain struct {
	id, typ, domain       string
	name, startURL        string
	internal, approved    bool
	selfRegistration, sso bool
}

// Organisation domain types.
const (
	domainManaged = "MANAGED"
	domainEmail   = "EMAIL"
)

// orgDomainJSON is the service's OrganizationDomain; the members after
// Domain are those of managed domains.
type orgDomainJSON struct {
	ID               string `json:"id"`
	Type             string `json:"type"`
	Domain           string `json:"domain"`
	Name             string `json:"name,omitempty"`
	Internal         *bool  `json:"internal,omitempty"`
	Approved         *bool  `json:"approved,omitempty"`
	StartURL         string `json:"startUrl,omitempty"`
	SelfRegistration *bool  `json:"selfRegistration,omitempty"`
	SSO              *bool  `json:"sso,omitempty"`
}

func (d *orgDomain) json() orgDomainJSON {
	out := orgDomainJSON{ID: d.id, Type: d.typ, Domain: d.domain}
	if d.typ == domainManaged {
		out.Name, out.StartURL = d.name, d.startURL
		out.Internal, out.Approved = &d.internal, &d.approved
		out.SelfRegistration, out.SSO = &d.selfRegistration, &d.sso
	}
	return out
}

// OrganizationDomainInfo describes an organisation domain of the fake, for
// assertions.
type OrganizationDomainInfo struct {
	ID, Type, Domain, Name, StartURL          string
	Internal, Approved, SelfRegistration, SSO bool
}

// OrganizationDomains returns the organisation's domains in creation
// order (the service publishes no list of them).
func (s *Server) OrganizationDomains() []OrganizationDomainInfo {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []OrganizationDomainInfo
	for _, d := range s.st.orgDomains.list {
		out = append(out, OrganizationDomainInfo{ID: d.id, Type: d.typ, Domain: d.domain, Name: d.name, StartURL: d.startURL,
			Internal: d.internal, Approved: d.approved, SelfRegistration: d.selfRegistration, SSO: d.sso})
	}
	return out
}

// domainRequestBody is the service's OrganizationDomainRequest.
type domainRequestBody struct {
	EmailDomain *struct {
		Domain *string `json:"domain"`
	} `json:"emailDomain"`
	ManagedDomain *struct {
		Domain           *string `json:"domain"`
		Name             *string `json:"name"`
		StartURL         *string `json:"startUrl"`
		Internal         *bool   `json:"internal"`
		Approved         *bool   `json:"approved"`
		SelfRegistration *bool   `json:"selfRegistration"`
		SSO              *bool   `json:"sso"`
	} `json:"managedDomain"`
}

// validDomain accepts a bare domain name such as "example.com".
func validDomain(d string) bool {
	return strings.Contains(d, ".") && !strings.ContainsAny(d, "@/ \t\r\n") &&
		!strings.HasPrefix(d, ".") && !strings.HasSuffix(d, ".")
}

// applyDomainRequest checks b against d (a new domain when create) and
// changes d; what b leaves out is kept. The caller holds s.mu.
func (s *Server) applyDomainRequest(d *orgDomain, b *domainRequestBody, create bool) *httpError {
	// readBody has made sure exactly one of the two is set.
	typ, name := domainEmail, (*string)(nil)
	if m := b.ManagedDomain; m != nil {
		typ, name = domainManaged, m.Domain
	} else {
		name = b.EmailDomain.Domain
	}
	switch {
	case !create && d.typ != typ:
		return errf(http.StatusUnprocessableEntity, "domain %s is %s: its type cannot change", d.id, d.typ)
	case create && name == nil:
		return errf(http.StatusUnprocessableEntity, "a new domain needs its domain name")
	case name != nil && !validDomain(*name):
		return errf(http.StatusUnprocessableEntity, "%q is not a domain name such as example.com", *name)
	}
	if name != nil {
		for _, o := range s.st.orgDomains.list {
			if o.id != d.id && strings.EqualFold(o.domain, *name) {
				return errf(http.StatusUnprocessableEntity, "domain %q exists already (%s)", *name, o.id)
			}
		}
		d.domain = *name
	}
	d.typ = typ
	if m := b.ManagedDomain; m != nil {
		setIf(&d.name, m.Name)
		setIf(&d.startURL, m.StartURL)
		setIf(&d.internal, m.Internal)
		setIf(&d.approved, m.Approved)
		setIf(&d.selfRegistration, m.SelfRegistration)
		setIf(&d.sso, m.SSO)
		if d.sso && d.selfRegistration {
			return errf(http.StatusUnprocessableEntity, "sso and selfRegistration exclude each other")
		}
	}
	return nil
}

// domainRoutes are the operations on e-mail domains.
var domainRoutes = []route{
	onJSON[groupDomainsBody](op.AddDomainsToGroup, onGroup((*Server).addGroupDomains)),
	onJSON[groupDomainsBody](op.RemoveDomainsFromGroup, onGroup((*Server).removeGroupDomains)),
	onJSON[domainRequestBody](op.CreateOrganizationDomain, admin((*Server).createOrgDomain)),
	onJSON[domainRequestBody](op.UpdateOrganizationDomain, admin((*Server).updateOrgDomain)),
}

// createOrgDomain is POST /domains: 201 with the new domain.
func (s *Server) createOrgDomain(rq *request) response {
	d := &orgDomain{}
	if e := s.applyDomainRequest(d, in[*domainRequestBody](rq), true); e != nil {
		return fail(e)
	}
	st := &s.st.orgDomains
	st.n++
	d.id = seqUUID(uuidOrgDomain, st.n)
	st.list = append(st.list, d)
	return reply(http.StatusCreated, d.json())
}

// updateOrgDomain is PUT /domains/{domainId}: 200 with the domain; what
// the body leaves out is kept, and the type cannot change (422).
func (s *Server) updateOrgDomain(rq *request) response {
	id := rq.params["domainId"]
	i := slices.IndexFunc(s.st.orgDomains.list, func(d *orgDomain) bool { return d.id == id })
	if i < 0 {
		return failf(http.StatusNotFound, "no domain with id %q", id)
	}
	d := s.st.orgDomains.list[i]
	work := *d
	if e := s.applyDomainRequest(&work, in[*domainRequestBody](rq), false); e != nil {
		return fail(e)
	}
	*d = work
	return reply(http.StatusOK, work.json())
}

// groupDomainsBody is the service's GroupDomainsInput.
type groupDomainsBody struct {
	Domains *[]string `json:"domains"`
}

// addGroupDomains is POST /groups/{groupId}/domains: 201 with the group's
// domains after the change; a domain the group has already (in any case)
// is left as it is.
func (s *Server) addGroupDomains(rq *request, g *group) response {
	return s.changeGroupDomains(rq, g, http.StatusCreated, func(g *group, ds []string) {
		for _, d := range ds {
			if !slices.ContainsFunc(g.domains, func(o domain) bool { return strings.EqualFold(o.domain, d) }) {
				g.domains = append(g.domains, domain{id: s.st.next.uuid(uuidDomain, &s.st.next.domain), domain: d})
			}
		}
	})
}

// removeGroupDomains is DELETE /groups/{groupId}/domains: 200 with the
// group's remaining domains; domains it does not have are ignored.
func (s *Server) removeGroupDomains(rq *request, g *group) response {
	return s.changeGroupDomains(rq, g, http.StatusOK, func(g *group, ds []string) {
		g.domains = slices.DeleteFunc(g.domains, func(o domain) bool {
			return slices.ContainsFunc(ds, func(d string) bool { return strings.EqualFold(o.domain, d) })
		})
	})
}

func (s *Server) changeGroupDomains(rq *request, g *group, status int, change func(*group, []string)) response {
	body := in[*groupDomainsBody](rq)
	if !g.flags.Dynamic {
		return failf(http.StatusUnprocessableEntity, "group %s is not dynamic: it has members, not domains", g.id)
	}
	if len(*body.Domains) == 0 {
		return failf(http.StatusUnprocessableEntity, "domains must name at least one domain")
	}
	for _, d := range *body.Domains {
		if !validDomain(d) {
			return failf(http.StatusUnprocessableEntity, "%q is not a domain name such as example.com", d)
		}
	}
	change(g, *body.Domains)
	return reply(status, g.json().Domains)
}
