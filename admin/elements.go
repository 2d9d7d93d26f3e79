package admin

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/seed-a15e58aa/workflow-go/internal/jsonmodel"

	"github.com/go-json-experiment/json/jsontext"

	workflow "github.com/seed-a15e58aa/workflow-go"
)

// ElementsService is the elements of the workspace: their definitions
// (the service calls them aspects), created by importing a table of a
// connected cloud source or natively: POST /elements, GET and
// PUT /elements/{alias}. The service publishes no list and no delete of
// element definitions.
//
// GET /elements/{alias} overlaps the record list of the elements of that
// alias: see the package documentation.
type ElementsService struct {
	client *workflow.Client
}

// AspectSourceType says where an aspect's data lives.
type AspectSourceType string

// The source types the service publishes.
const (
	// SourceElementum: the data is native to the service.
	SourceElementum AspectSourceType = "ELEMENTUM"
	// SourceSnowflake: the data is imported from a connected Snowflake
	// table.
	SourceSnowflake AspectSourceType = "SNOWFLAKE"
)

// AspectStatus is an aspect's lifecycle status. The service names DRAFT,
// ACTIVE and ARCHIVED and leaves the list open: a status it adds later is
// kept as sent.
type AspectStatus string

// The aspect statuses the service names.
const (
	AspectDraft    AspectStatus = "DRAFT"
	AspectActive   AspectStatus = "ACTIVE"
	AspectArchived AspectStatus = "ARCHIVED"
)

// Aspect is the definition of an app, element, task or transaction type,
// as the service publishes it: what ElementsService answers, and the app
// of a Skill.
//
// Members the SDK does not model are kept in Extra and written back when
// the aspect is encoded again, with encoding/json as with
// github.com/go-json-experiment/json. Encoding leaves out empty members.
type Aspect struct {
	// ID identifies the aspect (a UUID); paths take it or Namespace.
	ID string `json:"id,omitzero"`
	// TypeName is the aspect's variant: AspectApp, AspectElement,
	// AspectTask or AspectTransaction.
	TypeName string `json:"__typename,omitzero"`
	// Name is the display name.
	Name string `json:"name,omitzero"`
	// Namespace is the lowercase identifier used in paths (the alias).
	Namespace string `json:"namespace,omitzero"`
	// Handle is the uppercase prefix of record handles ("ITM" of ITM-4).
	Handle string `json:"handle,omitzero"`
	// Description describes the aspect.
	Description string `json:"description,omitzero"`
	// Icon and Color are how the aspect is shown.
	Icon  string `json:"icon,omitzero"`
	Color string `json:"color,omitzero"`
	// Status is the lifecycle status, as sent.
	Status AspectStatus `json:"status,omitzero"`
	// Configured reports whether the aspect is fully configured.
	Configured bool `json:"configured,omitzero"`
	// ReadOnly reports whether the aspect's records are read-only.
	ReadOnly bool `json:"readOnly,omitzero"`
	// SourceType says where the data lives.
	SourceType AspectSourceType `json:"sourceType,omitzero"`
	// Category is the category the aspect is filed under.
	Category *AspectCategory `json:"category,omitzero"`
	// Extra holds every member the fields above do not model, as raw JSON.
	Extra map[string]jsontext.Value `json:",embed"`
}

// UnmarshalJSON reads an aspect object; unknown members go to Extra.
func (a *Aspect) UnmarshalJSON(data []byte) error {
	return jsonmodel.Unmarshal(data, a)
}

// MarshalJSON writes the aspect object with its Extra members.
func (a Aspect) MarshalJSON() ([]byte, error) {
	return jsonmodel.Marshal(a)
}

// AspectCategory is the category an aspect is filed under: {"id", "name"}.
type AspectCategory struct {
	ID   string `json:"id,omitzero"`
	Name string `json:"name,omitzero"`
	// Extra holds unmodelled members, as raw JSON.
	Extra map[string]jsontext.Value `json:",embed"`
}

// UnmarshalJSON reads a category; unknown members go to Extra.
func (c *AspectCategory) UnmarshalJSON(data []byte) error {
	return jsonmodel.Unmarshal(data, c)
}

// MarshalJSON writes the category with its Extra members.
func (c AspectCategory) MarshalJSON() ([]byte, error) {
	return jsonmodel.Marshal(c)
}

// RecordCreateTypes says by which ways records of an element may be
// created. A nil member is not sent (Update keeps the current value).
type RecordCreateTypes struct {
	Agents      *bool `json:"agents,omitzero"`
	Email       *bool `json:"email,omitzero"`
	Services    *bool `json:"services,omitzero"`
	API         *bool `json:"api,omitzero"`
	Automations *bool `json:"automations,omitzero"`
	Manual      *bool `json:"manual,omitzero"`
}

// CloudOptions are options of the cloud source of a new element.
type CloudOptions struct {
	Snowflake *SnowflakeOptions `json:"snowflake,omitzero"`
}

// SnowflakeOptions are the Snowflake options of a new element.
type SnowflakeOptions struct {
	// HybridTable asks for a Snowflake hybrid table.
	HybridTable *bool `json:"hybridTable,omitzero"`
}

// ElementField is a field of a new element (the service's
// AspectFieldInput), for the native modes of NewElement.
type ElementField struct {
	// Name is the field's display name. Required.
	Name string `json:"name"`
	// Type is the field's data type. Required.
	Type AspectFieldType `json:"type"`
	// Description describes the field.
	Description string `json:"description,omitzero"`
	// ColumnName is the source column (import mode); empty for native
	// modes.
	ColumnName      string   `json:"columnName,omitzero"`
	Required        *bool    `json:"required,omitzero"`
	RequiredOnClose *bool    `json:"requiredOnClose,omitzero"`
	ShowOnCreate    *bool    `json:"showOnCreate,omitzero"`
	LockOnCreate    *bool    `json:"lockOnCreate,omitzero"`
	Tags            []string `json:"tags,omitzero"`
	SemanticTags    []string `json:"semanticTags,omitzero"`
}

// NewElement is the element to create with ElementsService.Create: the
// body of POST /elements (the service's ElementCreateRequest). The
// service knows three modes:
//
//   - import: CloudLinkID with Database, Schema and Table (and
//     optionally IDColumn and TitleColumn); the columns are read from the
//     source table, and Fields must be empty;
//   - native at a cloud link: CloudLinkID alone; a new table is created
//     there, with Fields (or the service's default fields);
//   - native: neither; the element lives on the organisation's own
//     cloud link, with Fields.
//
// Empty strings, nil pointers and nil slices are not sent.
type NewElement struct {
	// Name is the element's display name. Required.
	Name string `json:"name"`
	// CategoryID is the category (a UUID) to file the element under.
	// Required.
	CategoryID string `json:"categoryId"`
	// Namespace is the alias used in paths; the service derives it from
	// Name (its letters, in lower case) when empty.
	Namespace string `json:"namespace,omitzero"`
	// Handle is the prefix of record handles; the service derives it from
	// Name (its letters, in capitals) when empty.
	Handle      string `json:"handle,omitzero"`
	Description string `json:"description,omitzero"`
	Icon        string `json:"icon,omitzero"`
	Color       string `json:"color,omitzero"`
	ReadOnly    *bool  `json:"readOnly,omitzero"`

	AllowForwardedEmailIngestion *bool              `json:"allowForwardedEmailIngestion,omitzero"`
	AllowAnonymousEmailCreation  *bool              `json:"allowAnonymousEmailCreation,omitzero"`
	AllowInlineImageIngestion    *bool              `json:"allowInlineImageIngestion,omitzero"`
	WorkflowValuePerAutomation   *float64           `json:"workflowValuePerAutomation,omitzero"`
	RecordCreateTypes            *RecordCreateTypes `json:"recordCreateTypes,omitzero"`

	// CloudLinkID is the cloud link (a UUID) to import from, or to create
	// the element's table at.
	CloudLinkID string `json:"cloudLinkId,omitzero"`
	// Database, Schema and Table name the source table (import mode).
	Database string `json:"database,omitzero"`
	Schema   string `json:"schema,omitzero"`
	Table    string `json:"table,omitzero"`
	// IDColumn is the source column tagged HANDLE (TEXT, NUMBER or
	// HANDLE); import mode.
	IDColumn string `json:"idColumn,omitzero"`
	// TitleColumn is the source column tagged TITLE (TEXT); import mode.
	TitleColumn string `json:"titleColumn,omitzero"`
	// SnowflakeWarehouse overrides the warehouse for this element.
	SnowflakeWarehouse string        `json:"snowflakeWarehouse,omitzero"`
	CloudOptions       *CloudOptions `json:"cloudOptions,omitzero"`
	// Fields are the fields of a native element; empty in import mode.
	Fields []ElementField `json:"fields,omitzero"`

	// Extra holds further members of the body, for members the service
	// may add later. A key that names a field above is a duplicate member:
	// the call fails with a *workflow.ValidationError, and nothing is sent.
	Extra map[string]jsontext.Value `json:",embed"`
}

// MarshalJSON writes the create body.
func (n NewElement) MarshalJSON() ([]byte, error) {
	return jsonmodel.Marshal(n)
}

// validate checks what Create needs before any request.
func (n *NewElement) validate() error {
	if strings.TrimSpace(n.Name) == "" {
		return invalid("NewElement.Name", "must not be empty (the service requires it)")
	}
	if err := checkUUID("NewElement.CategoryID", n.CategoryID, true); err != nil {
		return err
	}
	if err := checkUUID("NewElement.CloudLinkID", n.CloudLinkID, false); err != nil {
		return err
	}
	source := n.Database != "" || n.Schema != "" || n.Table != "" || n.IDColumn != "" || n.TitleColumn != ""
	switch {
	case !source:
	case n.CloudLinkID == "":
		return invalid("NewElement.CloudLinkID", "must be set to import a source table (Database, Schema, Table, IDColumn, TitleColumn)")
	case n.Database == "" || n.Schema == "" || n.Table == "":
		return invalid("NewElement.Table", "needs Database, Schema and Table together to import a source table")
	case len(n.Fields) > 0:
		return invalid("NewElement.Fields", "must be empty when importing a source table: its columns are read from the table")
	}
	for i, f := range n.Fields {
		at := "NewElement.Fields[" + strconv.Itoa(i) + "]"
		if strings.TrimSpace(f.Name) == "" {
			return invalid(at+".Name", "must not be empty (the service requires it)")
		}
		if f.Type == "" {
			return invalid(at+".Type", "must not be empty (the service requires it)")
		}
	}
	return nil
}

// ElementUpdate is the change to an element with ElementsService.Update:
// the body of PUT /elements/{alias} (the service's ElementUpdateRequest).
// Only what is set is sent, and the service changes only that: empty
// strings and nil pointers are left out. The source of an element (cloud
// link, source table, fields) is fixed when it is created.
type ElementUpdate struct {
	Name        string `json:"name,omitzero"`
	Description string `json:"description,omitzero"`
	Icon        string `json:"icon,omitzero"`
	Color       string `json:"color,omitzero"`
	// CategoryID moves the element to another category (a UUID).
	CategoryID string `json:"categoryId,omitzero"`

	AllowForwardedEmailIngestion *bool              `json:"allowForwardedEmailIngestion,omitzero"`
	AllowAnonymousEmailCreation  *bool              `json:"allowAnonymousEmailCreation,omitzero"`
	AllowInlineImageIngestion    *bool              `json:"allowInlineImageIngestion,omitzero"`
	WorkflowValuePerAutomation   *float64           `json:"workflowValuePerAutomation,omitzero"`
	RecordCreateTypes            *RecordCreateTypes `json:"recordCreateTypes,omitzero"`

	// Extra holds further members of the body, as for NewElement.
	Extra map[string]jsontext.Value `json:",embed"`
}

// MarshalJSON writes the update body.
func (u ElementUpdate) MarshalJSON() ([]byte, error) {
	return jsonmodel.Marshal(u)
}

func (u *ElementUpdate) validate() error {
	if u.Name != "" && strings.TrimSpace(u.Name) == "" {
		return invalid("ElementUpdate.Name", "must not be blank")
	}
	return checkUUID("ElementUpdate.CategoryID", u.CategoryID, false)
}

// Create creates an element and returns its definition (201):
// POST /elements with n as the body. n.Name and n.CategoryID are
// required, and the modes of NewElement are checked; a broken rule is a
// *workflow.ValidationError naming the field, and nothing is sent.
//
// Like every POST, it is not retried after a 5xx or a dropped connection,
// since the service may have created the element.
func (s *ElementsService) Create(ctx context.Context, n NewElement, reqOpts ...workflow.RequestOption) (*Aspect, error) {
	return aspectAt(ctx, s.client, http.MethodPost, "elements", n.validate(), n, reqOpts)
}

// Get returns the definition of the element alias (its namespace or its
// UUID): GET /elements/{alias}, with no query string. An answer without an
// element id, such as the record list of the elements of that alias (see
// ElementsService), is an error matching workflow.ErrUnexpectedResponse.
func (s *ElementsService) Get(ctx context.Context, alias string, reqOpts ...workflow.RequestOption) (*Aspect, error) {
	p, err := segPath("", "elements", "alias", alias)
	return aspectAt(ctx, s.client, http.MethodGet, p, err, nil, reqOpts)
}

// Update changes the element alias (its namespace or its UUID) and returns
// its definition: PUT /elements/{alias} with u as the body (200). Only what
// u sets is sent and changed.
func (s *ElementsService) Update(ctx context.Context, alias string, u ElementUpdate, reqOpts ...workflow.RequestOption) (*Aspect, error) {
	p, err := segPath("", "elements", "alias", alias)
	if err == nil {
		err = u.validate()
	}
	return aspectAt(ctx, s.client, http.MethodPut, p, err, u, reqOpts)
}

// aspectAt sends one element operation and reads its Aspect, which must
// carry an id.
func aspectAt(ctx context.Context, c *workflow.Client, method, path string, err error, body any, reqOpts []workflow.RequestOption) (*Aspect, error) {
	a, err := call[Aspect](ctx, c, method, path, err, body, reqOpts)
	if err == nil && a.ID == "" {
		what := "an answer"
		if _, ok := a.Extra["items"]; ok {
			what = "a record list"
		}
		return nil, fmt.Errorf("%w: %s /%s answered with %s, not an element definition with an id", workflow.ErrUnexpectedResponse, method, path, what)
	}
	return a, err
}
