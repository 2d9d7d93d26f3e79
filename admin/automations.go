package admin

import (
	"cmp"
	"context"
	"net/http"

	json "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	workflow "github.com/seed-a15e58aa/workflow-go"
)

// Automations of an app or element live at
// /{recordType}/{alias}/automations; see the package documentation for
// the records routes the paths overlap.

// Automation is an automation's workflow as the service sends and takes
// it: a JSON object ("Passthrough": the service publishes no members; it
// calls an automation's workflow "in full-state form, with triggers,
// tasks and output properties"). Every member is kept as raw JSON, and
// written back as it came, members in sorted order.
type Automation map[string]jsontext.Value

// MarshalJSON writes the object with its members in sorted order, so the
// same automation always encodes to the same bytes (for version control,
// and for comparing two workspaces).
func (a Automation) MarshalJSON() ([]byte, error) {
	return json.Marshal(map[string]jsontext.Value(a), json.Deterministic(true))
}

// AutomationsService configures the automations of apps and elements.
type AutomationsService struct{ client *workflow.Client }

// automationCall sends one operation of the automations of t's alias:
// the path /{recordType}/{alias}/automations with the segments of rest
// (pairs, as for segPath), and def as the body of a POST or a PUT, which
// must have a member.
func automationCall[T any](ctx context.Context, s *AutomationsService, method string, t workflow.RecordType, alias string, def Automation, reqOpts []workflow.RequestOption, rest ...string) (T, error) {
	p, err := segPath(append([]string{"", string(t), "alias", alias, "", "automations"}, rest...)...)
	if !t.Valid() {
		err = invalid("record type", `must be one of "apps", "elements", "tasks", "transactions" (got "`+string(t)+`")`)
	}
	var body any
	if method == http.MethodPost || method == http.MethodPut {
		body = def
		if len(def) == 0 {
			err = cmp.Or(err, invalid("automation", "must have at least one member (the automation's definition)"))
		}
	}
	out, err := call[T](ctx, s.client, method, p, err, body, reqOpts)
	if err != nil {
		var zero T
		return zero, err
	}
	return *out, nil
}

// List returns the automations of an app or element:
// GET /{recordType}/{alias}/automations (200, AutomationList: an array,
// not paged).
func (s *AutomationsService) List(ctx context.Context, t workflow.RecordType, alias string, reqOpts ...workflow.RequestOption) ([]Automation, error) {
	return automationCall[[]Automation](ctx, s, http.MethodGet, t, alias, nil, reqOpts)
}

// Get returns one automation: GET /{recordType}/{alias}/automations/{id}
// (200). The service answers an AutomationList: the automation's active
// and/or draft workflow, so Get returns one or two objects.
func (s *AutomationsService) Get(ctx context.Context, t workflow.RecordType, alias, id string, reqOpts ...workflow.RequestOption) ([]Automation, error) {
	return automationCall[[]Automation](ctx, s, http.MethodGet, t, alias, nil, reqOpts, "id", id)
}

// Create creates an automation and returns what the service answers
// (201): POST /{recordType}/{alias}/automations with def as the body. An
// empty def is a *workflow.ValidationError, and nothing is sent. Like
// every POST, it is not retried after a 5xx or a dropped connection.
func (s *AutomationsService) Create(ctx context.Context, t workflow.RecordType, alias string, def Automation, reqOpts ...workflow.RequestOption) (Automation, error) {
	return automationCall[Automation](ctx, s, http.MethodPost, t, alias, def, reqOpts)
}

// Validate asks the service to check an automation without creating it:
// POST /{recordType}/{alias}/automations/validate with def as the body
// (200). It returns the service's verdict, a JSON object whose members
// are not published (the fake answers {"valid": bool, "errors": [...]}).
func (s *AutomationsService) Validate(ctx context.Context, t workflow.RecordType, alias string, def Automation, reqOpts ...workflow.RequestOption) (map[string]jsontext.Value, error) {
	return automationCall[map[string]jsontext.Value](ctx, s, http.MethodPost, t, alias, def, reqOpts, "", "validate")
}

// Update replaces an automation's definition and returns what the
// service answers (200): PUT /{recordType}/{alias}/automations/{id} with
// def as the body. An empty def is a *workflow.ValidationError.
func (s *AutomationsService) Update(ctx context.Context, t workflow.RecordType, alias, id string, def Automation, reqOpts ...workflow.RequestOption) (Automation, error) {
	return automationCall[Automation](ctx, s, http.MethodPut, t, alias, def, reqOpts, "id", id)
}

// Delete deletes an automation: DELETE
// /{recordType}/{alias}/automations/{id} (200). It returns the object the
// service answers (its members are not published; the fake answers the
// deleted automation).
func (s *AutomationsService) Delete(ctx context.Context, t workflow.RecordType, alias, id string, reqOpts ...workflow.RequestOption) (map[string]jsontext.Value, error) {
	return automationCall[map[string]jsontext.Value](ctx, s, http.MethodDelete, t, alias, nil, reqOpts, "id", id)
}
