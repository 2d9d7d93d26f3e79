package admin

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	json "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/internal/op"
)

// Automations of an app or element live at
// /{recordType}/{alias}/automations; see the package documentation for
// the records routes the paths overlap.

// Automation is an automation's workflow as the service sends and takes
// it: one JSON object ("Passthrough": the service publishes no members;
// it calls an automation's workflow "in full-state form, with triggers,
// tasks and output properties"). It is the same type read and written.
//
// An Automation is held, and encoded, in one canonical form, so that the
// same automation always has the same bytes (in a file kept in version
// control, and in a comparison with bytes.Equal): members sorted by name
// (in byte order) at every depth, no white space, every string written
// with one escaping (the fewest escapes: ", \ and control characters),
// and every number kept as it came (1.0 stays 1.0, 1e2 stays 1e2).
// Canonical returns that form of any JSON object. Written with
// github.com/go-json-experiment/json, an Automation is its bytes;
// encoding/json escapes <, >, & (unless told not to), U+2028 and U+2029
// besides, which read back to the same canonical form.
//
// Its underlying type is []byte: on Go 1.27 and later, reading and
// building one needs only the standard library (admin.Automation(b) of
// the bytes of a JSON object, and encoding/json/jsontext, which
// github.com/go-json-experiment/json/jsontext is an alias of there).
type Automation []byte

// Canonical returns the canonical form of the JSON object data (see
// Automation), or an error if data is not one JSON object.
func Canonical(data []byte) (Automation, error) {
	if k := jsontext.Value(data).Kind(); k != '{' {
		return nil, fmt.Errorf("admin: must be one JSON object, not %v", k)
	}
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	out, err := canonical(dec, nil)
	if err == nil {
		if _, err = dec.ReadToken(); err == nil {
			err = errors.New("more than one JSON value")
		} else if err == io.EOF {
			err = nil
		}
	}
	if err != nil {
		return nil, fmt.Errorf("admin: not one JSON object: %w", err)
	}
	return Automation(out), nil
}

// canonical appends the next value of dec to b in canonical form.
func canonical(dec *jsontext.Decoder, b []byte) ([]byte, error) {
	switch dec.PeekKind() {
	case '{':
		type member struct{ name, value []byte }
		var members []member
		if _, err := dec.ReadToken(); err != nil {
			return nil, err
		}
		for dec.PeekKind() != '}' {
			tok, err := dec.ReadToken()
			if err != nil {
				return nil, err
			}
			name := tok.String() // before the next read voids tok
			v, err := canonical(dec, nil)
			if err != nil {
				return nil, err
			}
			members = append(members, member{quote(name), v})
		}
		if _, err := dec.ReadToken(); err != nil {
			return nil, err
		}
		slices.SortFunc(members, func(x, y member) int { return bytes.Compare(x.name, y.name) })
		b = append(b, '{')
		for i, m := range members {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(append(append(b, m.name...), ':'), m.value...)
		}
		return append(b, '}'), nil
	case '[':
		if _, err := dec.ReadToken(); err != nil {
			return nil, err
		}
		b = append(b, '[')
		for i := 0; dec.PeekKind() != ']'; i++ {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = canonical(dec, b); err != nil {
				return nil, err
			}
		}
		if _, err := dec.ReadToken(); err != nil {
			return nil, err
		}
		return append(b, ']'), nil
	case '"':
		tok, err := dec.ReadToken()
		if err != nil {
			return nil, err
		}
		return append(b, quote(tok.String())...), nil
	default: // a number or a literal, as it came
		v, err := dec.ReadValue()
		return append(b, v...), err
	}
}

// quote writes s as a JSON string with the fewest escapes (", \ and
// control characters; \b, \t, \n, \f and \r by their short forms).
func quote(s string) []byte {
	q, _ := jsontext.AppendQuote(nil, s) // s came from a decoder: valid UTF-8
	return q
}

// MarshalJSON writes the automation in its canonical form; an automation
// that is not one JSON object is an error.
func (a Automation) MarshalJSON() ([]byte, error) { return Canonical(a) }

// UnmarshalJSON reads an automation, one JSON object, and holds it in its
// canonical form. A JSON null leaves it as it was.
func (a *Automation) UnmarshalJSON(data []byte) error {
	if string(bytes.TrimSpace(data)) == "null" {
		return nil
	}
	c, err := Canonical(data)
	if err == nil {
		*a = c
	}
	return err
}

// Member returns the member name as raw JSON, or nil when the automation
// has none (or is not a JSON object).
func (a Automation) Member(name string) jsontext.Value {
	var m map[string]jsontext.Value
	if json.Unmarshal(a, &m) != nil {
		return nil
	}
	return m[name]
}

// Without returns the automation without the members names (in
// canonical form): an automation read from one workspace, without its
// "id", is one to create in another. An automation that is not one JSON
// object is returned as it is.
func (a Automation) Without(names ...string) Automation {
	var m map[string]jsontext.Value
	if json.Unmarshal(a, &m) != nil {
		return a
	}
	for _, n := range names {
		delete(m, n)
	}
	b, _ := json.Marshal(m) // members that decoded encode
	out, err := Canonical(b)
	if err != nil {
		return a
	}
	return out
}

// text returns the member name when it is a JSON string, and "".
func (a Automation) text(name string) string {
	var s string
	if json.Unmarshal(a.Member(name), &s) != nil {
		return ""
	}
	return s
}

// Name returns the automation's name (its "name" member, which the fake
// requires), or "" when it has none.
func (a Automation) Name() string { return a.text("name") }

// ID returns the automation's id (its "id" member, which the service and
// the fake set), or "" when it has none.
func (a Automation) ID() string { return a.text("id") }

// Status returns the automation's "status" member, or "" when it has
// none. AutomationVersions reads "DRAFT" (in any case) as a draft.
func (a Automation) Status() string { return a.text("status") }

// AutomationVersions is an automation as AutomationsService.Get answers
// it: every version the answer holds (the service's "active and/or draft
// workflow"), in the order received; none, one, two or more, as the
// document sets no length. The document publishes no member that tells
// the versions apart: Draft and Active read the one the fake marks, a
// "status" of "DRAFT" (in any case).
type AutomationVersions []Automation

// Draft returns the first version whose "status" member is "DRAFT" (in
// any case), or nil when the answer marks none so.
func (v AutomationVersions) Draft() Automation { return v.first(true) }

// Active returns the first version not marked as a draft (see Draft), or
// nil when there is none. A version without a "status" member is read as
// active, as the fake serves it; two such versions cannot be told apart
// (both are in v, and Active returns the first).
func (v AutomationVersions) Active() Automation { return v.first(false) }

func (v AutomationVersions) first(draft bool) Automation {
	for _, a := range v {
		if strings.EqualFold(a.Status(), "DRAFT") == draft {
			return a
		}
	}
	return nil
}

// AutomationsService configures the automations of apps and elements.
type AutomationsService struct{ client *workflow.Client }

// automationsAt is the target of the automations operation id under the
// definition alias of recordType, with the further pairs of at after
// them.
func automationsAt(id op.ID, recordType workflow.RecordType, alias string, rest ...string) target {
	if err := recordType.Validate(); err != nil {
		return target{id: id, err: err}
	}
	return at(id, append([]string{"recordType", string(recordType), "alias", alias}, rest...)...)
}

// List returns the automations of an app or element:
// GET /{recordType}/{alias}/automations (200, AutomationList: an array,
// not paged). The service does not publish which version of an
// automation with a draft it lists; the fake lists the active version.
func (s *AutomationsService) List(ctx context.Context, recordType workflow.RecordType, alias string, reqOpts ...workflow.RequestOption) ([]Automation, error) {
	out, err := call[[]Automation](ctx, s.client, automationsAt(op.ListAutomations, recordType, alias), nil, reqOpts)
	if err != nil {
		return nil, err
	}
	return *out, nil
}

// Get returns one automation, every version the answer holds:
// GET /{recordType}/{alias}/automations/{id} (200). The service answers
// an AutomationList, "the active and/or draft workflow", an array of any
// length: Get returns them all, in the order received (an empty array is
// an empty AutomationVersions, not an error). See AutomationVersions for
// which is the draft.
func (s *AutomationsService) Get(ctx context.Context, recordType workflow.RecordType, alias, id string, reqOpts ...workflow.RequestOption) (AutomationVersions, error) {
	list, err := call[AutomationVersions](ctx, s.client, automationsAt(op.GetAutomation, recordType, alias, "id", id), nil, reqOpts)
	if err != nil {
		return nil, err
	}
	return *list, nil
}

// Create creates an automation and returns it as the service answers
// (201): POST /{recordType}/{alias}/automations with a as the body, one
// JSON object. Like every POST, it is not retried after a 5xx or a
// dropped connection.
func (s *AutomationsService) Create(ctx context.Context, recordType workflow.RecordType, alias string, a Automation, reqOpts ...workflow.RequestOption) (Automation, error) {
	return automationCall(ctx, s.client, automationsAt(op.CreateAutomation, recordType, alias), a, reqOpts)
}

// Validate asks the service to check an automation without creating it:
// POST /{recordType}/{alias}/automations/validate with a as the body
// (200). It returns the service's verdict as it came, a JSON object whose
// members are not published (the fake answers {"valid": bool, "errors":
// [...]}).
func (s *AutomationsService) Validate(ctx context.Context, recordType workflow.RecordType, alias string, a Automation, reqOpts ...workflow.RequestOption) (jsontext.Value, error) {
	return callRaw(ctx, s.client, automationsAt(op.ValidateAutomation, recordType, alias), a, reqOpts)
}

// Update replaces an automation and returns it as the service answers
// (200): PUT /{recordType}/{alias}/automations/{id} with a as the body.
func (s *AutomationsService) Update(ctx context.Context, recordType workflow.RecordType, alias, id string, a Automation, reqOpts ...workflow.RequestOption) (Automation, error) {
	return automationCall(ctx, s.client, automationsAt(op.UpdateAutomation, recordType, alias, "id", id), a, reqOpts)
}

// Delete deletes an automation: DELETE
// /{recordType}/{alias}/automations/{id} (200). The answer's members are
// not published (the fake answers the deleted automation), and Delete
// drops it.
func (s *AutomationsService) Delete(ctx context.Context, recordType workflow.RecordType, alias, id string, reqOpts ...workflow.RequestOption) error {
	return callNone(ctx, s.client, automationsAt(op.DeleteAutomation, recordType, alias, "id", id), nil, reqOpts)
}

// automationCall sends a and reads the automation answered.
func automationCall(ctx context.Context, c *workflow.Client, t target, a Automation, reqOpts []workflow.RequestOption) (Automation, error) {
	out, err := call[Automation](ctx, c, t, a, reqOpts)
	if err != nil {
		return nil, err
	}
	return *out, nil
}
