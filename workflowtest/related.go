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

// relatedKind is the related record's kind as the service writes it.
func relatedKind(rt workflow.RecordType) string {
	switch rt {
	case workflow.Apps:
		return "APP"
	case workflow.Tasks:
		return "TASK"
	case workflow.Elements:
		return "ELEMENT"
	case workflow.Transactions:
		return "TRANSACTION"
	}
	return strings.ToUpper(string(rt))
}

// relatedItemJSON is a related item on the wire.
type relatedItemJSON struct {
	ID     string `json:"id"`
	Type   string `json:"type"`
	Alias  string `json:"alias"`
	Cursor string `json:"cursor"`
}

// relatedBody is the body of POST .../related-items: exactly one item.
type relatedBody struct {
	ID    string `json:"id"`
	Alias string `json:"alias"`
}

func relationSeq(r *relation) uint64 { return r.seq }

// listRelated is GET .../related-items: Paged<{id, type, alias, cursor}>,
// in the order the items were added.
// relatedRoutes are the operations on related items.
var relatedRoutes = []route{
	on(op.GetRecordRelations, onRecord((*Server).listRelated)),
	onJSON[relatedBody](op.CreateRecordRelatedItem, onRecord((*Server).addRelated)),
	on(op.DeleteRecordRelatedItem, onRecord((*Server).removeRelated)),
}

func (s *Server) listRelated(rq *request, rec *record) response {
	return listPage(rq, "related-items "+rec.def.key.String()+"/"+rec.id, rec.related, relationSeq, nil, func(r *relation, cursor string) any {
		return relatedItemJSON{ID: r.recID, Type: relatedKind(r.target.rt), Alias: r.target.alias, Cursor: cursor}
	})
}

// addRelated is POST .../related-items with {"id", "alias"?}: one item per
// call (the spec's rule), 201 without a body.
func (s *Server) addRelated(rq *request, rec *record) response {
	body := in[*relatedBody](rq)
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
func (s *Server) findRelated(rq *request, body relatedBody) (defKey, *httpError) {
	var found []defKey
	for k, d := range s.st.defs {
		if (body.Alias == "" || k.alias == body.Alias) && d.byID[body.ID] != nil {
			found = append(found, k)
		}
	}
	switch len(found) {
	case 0:
		if body.Alias != "" {
			return defKey{}, errf(http.StatusUnprocessableEntity, "no record %q with alias %q", body.ID, body.Alias)
		}
		return defKey{}, errf(http.StatusUnprocessableEntity, "no record %q", body.ID)
	case 1:
	default:
		slices.SortFunc(found, func(a, b defKey) int { return strings.Compare(a.String(), b.String()) })
		names := make([]string, len(found))
		for i, k := range found {
			names[i] = k.String()
		}
		return defKey{}, errf(http.StatusUnprocessableEntity, "record %q exists in %s: give its alias", body.ID, strings.Join(names, ", "))
	}
	if s.st.denied[rq.user.id][found[0]] {
		return defKey{}, errf(http.StatusForbidden, "user %s has no permission for %s", rq.user.id, found[0])
	}
	return found[0], nil
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

// userIDsBody is the body of the group-membership changes.
type userIDsBody struct {
	UserIDs []string `json:"userIds"`
}

// checkUserIDs checks that every id of userIds names a user
// every user exists. The caller holds s.mu.
func (s *Server) checkUserIDs(ids []string) *httpError {
	var unknown []string
	for _, id := range ids {
		if s.st.usersByID[id] == nil {
			unknown = append(unknown, id)
		}
	}
	if len(unknown) > 0 {
		return errf(http.StatusUnprocessableEntity, "unknown user ids: %s", strings.Join(unknown, ", "))
	}
	return nil
}
