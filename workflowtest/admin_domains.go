package workflowtest

import (
	"net/http"
	"slices"
	"strings"

	"github.com/seed-a15e58aa/workflow-go/admin"
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
	list []orgDomain // in creation order
	n    uint64      // ids handed out
}

// orgDomain is an organisation domain.
type orgDomain = OrganizationDomainInfo

// Organisation domain types.
const (
	domainManaged = "MANAGED"
	domainEmail   = "EMAIL"
)

// model is d as the service's OrganizationDomain; the members after
// Domain are those of managed domains (a name or start URL is answered
// when not empty).
func (d *orgDomain) model() admin.Domain {
	out := admin.Domain{ID: admin.Some(d.ID), Type: admin.Some(admin.DomainType(d.Type)), Domain: admin.Some(d.Domain)}
	if d.Type == domainManaged {
		out.Name, out.StartURL = someIf(d.Name), someIf(d.StartURL)
		out.Internal, out.Approved = admin.Some(d.Internal), admin.Some(d.Approved)
		out.SelfRegistration, out.SSO = admin.Some(d.SelfRegistration), admin.Some(d.SSO)
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
	return slices.Clone(s.st.orgDomains.list)
}

// validDomain accepts a bare domain name such as "example.com".
func validDomain(d string) bool {
	return strings.Contains(d, ".") && !strings.ContainsAny(d, "@/ \t\r\n") &&
		!strings.HasPrefix(d, ".") && !strings.HasSuffix(d, ".")
}

// applyDomainRequest checks b against d (a new domain when it has no id
// yet) and changes d; what b leaves out is kept. The caller holds s.mu.
func (s *Server) applyDomainRequest(d *orgDomain, b *admin.DomainRequest) *httpError {
	create := d.ID == ""
	typ, m, name := domainEmail, b.Managed, (*string)(nil)
	if m != nil {
		typ, name = domainManaged, m.Domain
	} else if b.Email != nil {
		name = b.Email.Domain
	}
	switch {
	case !create && d.Type != typ:
		return errf(http.StatusUnprocessableEntity, "domain %s is %s: its type cannot change", d.ID, d.Type)
	case create && name == nil:
		return errf(http.StatusUnprocessableEntity, "a new domain needs its domain name")
	case name != nil && !validDomain(*name):
		return errf(http.StatusUnprocessableEntity, "%q is not a domain name such as example.com", *name)
	}
	if name != nil {
		for _, o := range s.st.orgDomains.list {
			if o.ID != d.ID && strings.EqualFold(o.Domain, *name) {
				return errf(http.StatusUnprocessableEntity, "domain %q exists already (%s)", *name, o.ID)
			}
		}
		d.Domain = *name
	}
	d.Type = typ
	if typ == domainManaged {
		setIf(&d.Name, m.Name)
		setIf(&d.StartURL, m.StartURL)
		setIf(&d.Internal, m.Internal)
		setIf(&d.Approved, m.Approved)
		setIf(&d.SelfRegistration, m.SelfRegistration)
		setIf(&d.SSO, m.SSO)
		if d.SSO && d.SelfRegistration {
			return errf(http.StatusUnprocessableEntity, "sso and selfRegistration exclude each other")
		}
	}
	return nil
}

// domainRoutes are the operations on e-mail domains.
var domainRoutes = []route{
	onJSON[admin.GroupDomainsInput](op.AddDomainsToGroup, onGroup((*Server).changeGroupDomains)),
	onJSON[admin.GroupDomainsInput](op.RemoveDomainsFromGroup, onGroup((*Server).changeGroupDomains)),
	onJSON[admin.DomainRequest](op.CreateOrganizationDomain, adminOnly((*Server).putOrgDomain)),
	onJSON[admin.DomainRequest](op.UpdateOrganizationDomain, adminOnly((*Server).putOrgDomain)),
}

// putOrgDomain is POST /domains (201 with the new domain) and PUT
// /domains/{domainId} (200 with the domain; what the body leaves out is
// kept, and the type cannot change, 422).
func (s *Server) putOrgDomain(rq *request) response {
	st := &s.st.orgDomains
	id, put := rq.params["domainId"]
	i := slices.IndexFunc(st.list, func(d orgDomain) bool { return d.ID == id })
	var work orgDomain
	switch {
	case put && i < 0:
		return failf(http.StatusNotFound, "no domain with id %q", id)
	case put:
		work = st.list[i]
	}
	if e := s.applyDomainRequest(&work, in[*admin.DomainRequest](rq)); e != nil {
		return fail(e)
	}
	if put {
		st.list[i] = work
	} else {
		st.n++
		work.ID = s.st.next.seqUUID(uuidOrgDomain, st.n)
		st.list = append(st.list, work)
	}
	return reply(statusOf(put), work.model())
}

// changeGroupDomains is POST /groups/{groupId}/domains (201; a domain
// the group has already, in any case, is left as it is) and DELETE (200;
// domains it does not have are ignored), both with the group's domains
// after the change.
func (s *Server) changeGroupDomains(rq *request, g *group) response {
	ds := in[*admin.GroupDomainsInput](rq).Domains
	if !g.flags.Dynamic {
		return failf(http.StatusUnprocessableEntity, "group %s is not dynamic: it has members, not domains", g.id)
	}
	if len(ds) == 0 {
		return failf(http.StatusUnprocessableEntity, "domains must name at least one domain")
	}
	for _, d := range ds {
		if !validDomain(d) {
			return failf(http.StatusUnprocessableEntity, "%q is not a domain name such as example.com", d)
		}
	}
	has := func(ds []string, o domain) bool {
		return slices.ContainsFunc(ds, func(d string) bool { return strings.EqualFold(o.domain, d) })
	}
	if rq.r.Method == http.MethodDelete {
		g.domains = slices.DeleteFunc(g.domains, func(o domain) bool { return has(ds, o) })
		return reply(http.StatusOK, g.json().Domains)
	}
	for _, d := range ds {
		if !slices.ContainsFunc(g.domains, func(o domain) bool { return has([]string{d}, o) }) {
			g.domains = append(g.domains, domain{id: s.st.next.uuid(uuidDomain, &s.st.next.domain), domain: d})
		}
	}
	return reply(http.StatusCreated, g.json().Domains)
}
