package workflowtest

import (
	"net/http"
	"slices"
	"strings"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// relation relates a record to another record. The related record's id
// is also the item's id on the wire and in DELETE .../related-items/{id},
// so a record relates to at most one record of a given id.
type relation struct {
	seq    uint64
	target defKey
	recID  string
}

// relatedRoutes are the operations on related items.
var relatedRoutes = []route{
	on(op.GetRecordRelations, onRecord((*Server).listRelated)),
	onJSON[workflow.RelatedRef](op.CreateRecordRelatedItems, onRecord((*Server).addRelated)),
	on(op.DeleteRecordRelatedItems, onRecord((*Server).removeRelated)),
}

// listRelated is GET .../related-items: Paged<{id, type, alias, cursor}>,
// in the order the items were added. The type is the related record's
// kind as the service writes it: its record type in capitals, singular
// (APP, ELEMENT, TASK, TRANSACTION).
func (s *Server) listRelated(rq *request, rec *record) response {
	return listPage(rq, "related-items "+rec.def.key.String()+"/"+rec.id, rec.related, func(r *relation) uint64 { return r.seq }, nil,
		func(r *relation, cursor string) any {
			kind := strings.ToUpper(strings.TrimSuffix(string(r.target.rt), "s"))
			return map[string]string{"id": r.recID, "type": kind, "alias": r.target.alias, "cursor": cursor}
		})
}

// addRelated is POST .../related-items with {"id", "alias"?}: one item per
// call (the spec's rule), 201 without a body.
func (s *Server) addRelated(rq *request, rec *record) response {
	body := in[*workflow.RelatedRef](rq)
	target, e := s.findRelated(rq, *body)
	if e != nil {
		return fail(e)
	}
	if target == rec.def.key && body.ID == rec.id {
		return failf(http.StatusUnprocessableEntity, "a record cannot be related to itself")
	}
	if slices.ContainsFunc(rec.related, func(r *relation) bool { return r.recID == body.ID }) {
		return failf(http.StatusUnprocessableEntity, "a record with id %q is already related", body.ID)
	}
	rec.related = append(rec.related, &relation{seq: s.st.next.nextSeq(), target: target, recID: body.ID})
	return response{status: http.StatusCreated}
}

// findRelated finds the definition of the record a related-item body
// names: by its alias when given (in any record type), otherwise among
// every definition. The caller holds s.mu.
func (s *Server) findRelated(rq *request, item workflow.RelatedRef) (defKey, *httpError) {
	body := struct{ ID, Alias string }{item.ID, valueOf(item.Alias)}
	var target defKey
	var names []string
	for k, d := range s.st.defs {
		if (body.Alias == "" || k.alias == body.Alias) && d.byID[body.ID] != nil {
			target, names = k, append(names, k.String())
		}
	}
	switch {
	case len(names) == 0 && body.Alias != "":
		return defKey{}, errf(http.StatusUnprocessableEntity, "no record %q with alias %q", body.ID, body.Alias)
	case len(names) == 0:
		return defKey{}, errf(http.StatusUnprocessableEntity, "no record %q", body.ID)
	case len(names) > 1:
		slices.Sort(names)
		return defKey{}, errf(http.StatusUnprocessableEntity, "record %q exists in %s: give its alias", body.ID, strings.Join(names, ", "))
	case s.st.denied[rq.user.id][target]:
		return defKey{}, errf(http.StatusForbidden, "user %s has no permission for %s", rq.user.id, target)
	}
	return target, nil
}

// removeRelated is DELETE .../related-items/{itemId}, itemId being the
// related record's id: 200 without a body.
func (s *Server) removeRelated(rq *request, rec *record) response {
	item := rq.params["itemId"]
	i := slices.IndexFunc(rec.related, func(r *relation) bool { return r.recID == item })
	if i < 0 {
		return failf(http.StatusNotFound, "no related item %q on record %q", item, rec.id)
	}
	rec.related = slices.Delete(rec.related, i, i+1)
	return response{status: http.StatusOK}
}

// Related returns the related items of a record as
// "<recordType>/<alias>/<recordId>" strings, in the order they were added.
func (s *Server) Related(rt workflow.RecordType, alias, recordID string) []string {
	return ofRecord(s, rt, alias, recordID, func(r *record) []*relation { return r.related }, func(rel *relation) string { return rel.target.String() + "/" + rel.recID })
}
