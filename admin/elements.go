package admin

import (
	"context"
	"fmt"

	"github.com/seed-a15e58aa/workflow-go/internal/jsonmodel"

	"github.com/go-json-experiment/json/jsontext"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/internal/op"
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
	ID Opt[string] `json:"id,omitzero"`
	// TypeName is the aspect's variant: AspectApp, AspectElement,
	// AspectTask or AspectTransaction.
	TypeName Opt[string] `json:"__typename,omitzero"`
	// Name is the display name.
	Name Opt[string] `json:"name,omitzero"`
	// Namespace is the lowercase identifier used in paths (the alias).
	Namespace Opt[string] `json:"namespace,omitzero"`
	// Handle is the uppercase prefix of record handles ("ITM" of ITM-4).
	Handle Opt[string] `json:"handle,omitzero"`
	// Description describes the aspect.
	Description Opt[string] `json:"description,omitzero"`
	// Icon and Color are how the aspect is shown.
	Icon  Opt[string] `json:"icon,omitzero"`
	Color Opt[string] `json:"color,omitzero"`
	// Status is the lifecycle status, as sent.
	Status Opt[AspectStatus] `json:"status,omitzero"`
	// Configured reports whether the aspect is fully configured.
	Configured Opt[bool] `json:"configured,omitzero"`
	// ReadOnly reports whether the aspect's records are read-only.
	ReadOnly Opt[bool] `json:"readOnly,omitzero"`
	// SourceType says where the data lives.
	SourceType Opt[AspectSourceType] `json:"sourceType,omitzero"`
	// Category is the category the aspect is filed under.
	Category Opt[AspectCategory] `json:"category,omitzero"`
	// Extra holds every member the fields above do not model, as raw JSON.
	Extra map[string]jsontext.Value `json:",embed"`
}

// UnmarshalJSON reads an aspect object; unknown members go to Extra.
func (a *Aspect) UnmarshalJSON(data []byte) error { return jsonmodel.Unmarshal(data, a) }

// MarshalJSON writes the aspect object with its Extra members.
func (a Aspect) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(a) }

// Request returns the update body of the element as read (for
// ElementsService.Update, in this workspace or another), with every
// member as it was read: its name, description, icon, color, its
// category's id as categoryId, and the members of Extra (the element
// settings the update body takes, such as allowForwardedEmailIngestion,
// when the service sends them). What it cannot carry: the read-only id,
// __typename, namespace, handle, status, configured, readOnly and
// sourceType (an element's source and fields are fixed when it is
// created), and the category's name. A member read as null is an error
// naming it.
func (a Aspect) Request() (ElementUpdate, error) {
	return writeBody[ElementUpdate](a, []string{"id", "__typename", "namespace", "handle", "status", "configured", "readOnly", "sourceType"},
		map[string]any{"category": nil, "categoryId": a.Category.Value().ID})
}

// AspectCategory is the category an aspect is filed under: {"id", "name"}.
type AspectCategory struct {
	ID   Opt[string] `json:"id,omitzero"`
	Name Opt[string] `json:"name,omitzero"`
	// Extra holds unmodelled members, as raw JSON.
	Extra map[string]jsontext.Value `json:",embed"`
}

// UnmarshalJSON reads a category; unknown members go to Extra.
func (c *AspectCategory) UnmarshalJSON(data []byte) error { return jsonmodel.Unmarshal(data, c) }

// MarshalJSON writes the category with its Extra members.
func (c AspectCategory) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(c) }

// RecordCreateTypes says by which ways records of an element may be
// created. A nil member is not sent (Update keeps the current value).
type RecordCreateTypes struct {
	Agents      *bool `json:"agents,omitzero"`
	Email       *bool `json:"email,omitzero"`
	Services    *bool `json:"services,omitzero"`
	API         *bool `json:"api,omitzero"`
	Automations *bool `json:"automations,omitzero"`
	Manual      *bool `json:"manual,omitzero"`
	// Extra holds further members, forwarded as they are.
	Extra map[string]jsontext.Value `json:",embed"`
}

// CloudOptions are options of the cloud source of a new element.
type CloudOptions struct {
	Snowflake *SnowflakeOptions `json:"snowflake,omitzero"`
	// Extra holds further members, forwarded as they are.
	Extra map[string]jsontext.Value `json:",embed"`
}

// SnowflakeOptions are the Snowflake options of a new element.
type SnowflakeOptions struct {
	// HybridTable asks for a Snowflake hybrid table.
	HybridTable *bool `json:"hybridTable,omitzero"`
	// Extra holds further members, forwarded as they are.
	Extra map[string]jsontext.Value `json:",embed"`
}

// ElementField is a field of a new element (the service's
// AspectFieldInput), for the native modes of NewElement.
type ElementField struct {
	// Name is the field's display name. Required.
	Name string `json:"name"`
	// Type is the field's data type. Required.
	Type AspectFieldType `json:"type"`
	// Description describes the field.
	Description *string `json:"description,omitzero"`
	// ColumnName is the source column (import mode); nil for native
	// modes.
	ColumnName      *string  `json:"columnName,omitzero"`
	Required        *bool    `json:"required,omitzero"`
	RequiredOnClose *bool    `json:"requiredOnClose,omitzero"`
	ShowOnCreate    *bool    `json:"showOnCreate,omitzero"`
	LockOnCreate    *bool    `json:"lockOnCreate,omitzero"`
	Tags            []string `json:"tags,omitzero"`
	SemanticTags    []string `json:"semanticTags,omitzero"`
	// Extra holds further members, forwarded as they are.
	Extra map[string]jsontext.Value `json:",embed"`
}

// NewElement is the element to create with ElementsService.Create: the
// body of POST /elements (the service's ElementCreateRequest). The
// service knows three modes:
//
//   - import: CloudLinkID with Database, Schema and Table (and
//     optionally IDColumn and TitleColumn); the columns are read from the
//     source table, and Fields is left out;
//   - native at a cloud link: CloudLinkID alone; a new table is created
//     there, with Fields (or the service's default fields);
//   - native: neither; the element lives on the organisation's own
//     cloud link, with Fields.
//
// As in every request body of this package, a nil pointer, a nil slice
// and a nil JSON value leave the member out, and a pointer to an empty
// value (new(""), new(false)) or an empty non-nil slice sends it empty.
type NewElement struct {
	// Name is the element's display name. Required.
	Name string `json:"name"`
	// CategoryID is the category (a UUID) to file the element under.
	// Required.
	CategoryID string `json:"categoryId"`
	// Namespace is the alias used in paths; the service derives it from
	// Name (its letters, in lower case) when it is left out. Like every
	// alias of a path, it must be a usable path segment (not empty, ".",
	// ".." or white space, without "/" or control characters).
	Namespace *string `json:"namespace,omitzero"`
	// Handle is the prefix of record handles; the service derives it from
	// Name (its letters, in capitals) when it is left out.
	Handle      *string `json:"handle,omitzero"`
	Description *string `json:"description,omitzero"`
	Icon        *string `json:"icon,omitzero"`
	Color       *string `json:"color,omitzero"`
	ReadOnly    *bool   `json:"readOnly,omitzero"`

	AllowForwardedEmailIngestion *bool              `json:"allowForwardedEmailIngestion,omitzero"`
	AllowAnonymousEmailCreation  *bool              `json:"allowAnonymousEmailCreation,omitzero"`
	AllowInlineImageIngestion    *bool              `json:"allowInlineImageIngestion,omitzero"`
	WorkflowValuePerAutomation   *float64           `json:"workflowValuePerAutomation,omitzero"`
	RecordCreateTypes            *RecordCreateTypes `json:"recordCreateTypes,omitzero"`

	// CloudLinkID is the cloud link (a UUID) to import from, or to create
	// the element's table at.
	CloudLinkID *string `json:"cloudLinkId,omitzero"`
	// Database, Schema and Table name the source table (import mode).
	Database *string `json:"database,omitzero"`
	Schema   *string `json:"schema,omitzero"`
	Table    *string `json:"table,omitzero"`
	// IDColumn is the source column tagged HANDLE (TEXT, NUMBER or
	// HANDLE); import mode.
	IDColumn *string `json:"idColumn,omitzero"`
	// TitleColumn is the source column tagged TITLE (TEXT); import mode.
	TitleColumn *string `json:"titleColumn,omitzero"`
	// SnowflakeWarehouse overrides the warehouse for this element.
	SnowflakeWarehouse *string       `json:"snowflakeWarehouse,omitzero"`
	CloudOptions       *CloudOptions `json:"cloudOptions,omitzero"`
	// Fields are the fields of a native element; nil in import mode.
	Fields []ElementField `json:"fields,omitzero"`

	// Extra holds further members of the body, for members the service
	// may add later. A key that names a field above is an error, and
	// nothing is sent.
	Extra map[string]jsontext.Value `json:",embed"`
}

// ElementUpdate is the change to an element with ElementsService.Update:
// the body of PUT /elements/{alias} (the service's ElementUpdateRequest).
// Only what is set is sent, and the service changes only that: a nil
// pointer leaves a member out, and a pointer to an empty value sends it
// empty (new("") clears the description). CategoryID is a UUID: the
// document gives no empty value that clears it. The source of an element
// (cloud link, source table, fields) is fixed when it is created.
// Aspect.Request returns the one of an element as read.
type ElementUpdate struct {
	Name        *string `json:"name,omitzero"`
	Description *string `json:"description,omitzero"`
	Icon        *string `json:"icon,omitzero"`
	Color       *string `json:"color,omitzero"`
	// CategoryID moves the element to another category (a UUID).
	CategoryID *string `json:"categoryId,omitzero"`

	AllowForwardedEmailIngestion *bool              `json:"allowForwardedEmailIngestion,omitzero"`
	AllowAnonymousEmailCreation  *bool              `json:"allowAnonymousEmailCreation,omitzero"`
	AllowInlineImageIngestion    *bool              `json:"allowInlineImageIngestion,omitzero"`
	WorkflowValuePerAutomation   *float64           `json:"workflowValuePerAutomation,omitzero"`
	RecordCreateTypes            *RecordCreateTypes `json:"recordCreateTypes,omitzero"`

	// Extra holds further members of the body, as for NewElement.
	Extra map[string]jsontext.Value `json:",embed"`
}

// MarshalJSON writes the record-create types with their Extra members.
func (r RecordCreateTypes) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(r) }

// UnmarshalJSON reads the record-create types; unknown members go to
// Extra, and a null member is an error.
func (r *RecordCreateTypes) UnmarshalJSON(data []byte) error { return jsonmodel.UnmarshalBody(data, r) }

// MarshalJSON writes the cloud options with their Extra members.
func (o CloudOptions) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(o) }

// UnmarshalJSON reads the cloud options, as RecordCreateTypes's does.
func (o *CloudOptions) UnmarshalJSON(data []byte) error { return jsonmodel.UnmarshalBody(data, o) }

// MarshalJSON writes the Snowflake options with their Extra members.
func (o SnowflakeOptions) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(o) }

// UnmarshalJSON reads the Snowflake options, as RecordCreateTypes's does.
func (o *SnowflakeOptions) UnmarshalJSON(data []byte) error { return jsonmodel.UnmarshalBody(data, o) }

// MarshalJSON writes the field with its Extra members.
func (f ElementField) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(f) }

// UnmarshalJSON reads the field, as RecordCreateTypes's does.
func (f *ElementField) UnmarshalJSON(data []byte) error { return jsonmodel.UnmarshalBody(data, f) }

// MarshalJSON writes the create body with its Extra members.
func (n NewElement) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(n) }

// UnmarshalJSON reads the create body, as RecordCreateTypes's does.
func (n *NewElement) UnmarshalJSON(data []byte) error { return jsonmodel.UnmarshalBody(data, n) }

// MarshalJSON writes the update body with its Extra members.
func (u ElementUpdate) MarshalJSON() ([]byte, error) { return jsonmodel.Marshal(u) }

// UnmarshalJSON reads the update body, as RecordCreateTypes's does.
func (u *ElementUpdate) UnmarshalJSON(data []byte) error { return jsonmodel.UnmarshalBody(data, u) }

// Create creates an element and returns its definition (201):
// POST /elements with n as the body. A body that breaks a rule of the
// document (Name and CategoryID are required, CategoryID and CloudLinkID
// are UUIDs), or a Namespace that is not a usable path segment, is a
// *workflow.ValidationError naming the member, and nothing is sent.
//
// Like every POST, it is not retried after a 5xx or a dropped connection,
// since the service may have created the element.
func (s *ElementsService) Create(ctx context.Context, n NewElement, reqOpts ...workflow.RequestOption) (*Aspect, error) {
	var err error
	if n.Namespace != nil {
		_, err = workflow.Segment("NewElement.namespace", *n.Namespace)
	}
	return aspectAt(ctx, s.client, at(op.CreateElement).or(err), n, reqOpts)
}

// Get returns the definition of the element alias (its namespace or its
// UUID): GET /elements/{alias}, with no query string. An answer without an
// element id, such as the record list of the elements of that alias (see
// ElementsService), is an error matching workflow.ErrUnexpectedResponse.
func (s *ElementsService) Get(ctx context.Context, alias string, reqOpts ...workflow.RequestOption) (*Aspect, error) {
	return aspectAt(ctx, s.client, at(op.GetElement, "alias", alias), nil, reqOpts)
}

// Update changes the element alias (its namespace or its UUID) and returns
// its definition: PUT /elements/{alias} with u as the body (200). Only what
// u sets is sent and changed.
func (s *ElementsService) Update(ctx context.Context, alias string, u ElementUpdate, reqOpts ...workflow.RequestOption) (*Aspect, error) {
	return aspectAt(ctx, s.client, at(op.UpdateElement, "alias", alias), u, reqOpts)
}

// aspectAt sends one element operation and reads its Aspect, which must
// carry an id.
func aspectAt(ctx context.Context, c *workflow.Client, t target, body any, reqOpts []workflow.RequestOption) (*Aspect, error) {
	a, err := call[Aspect](ctx, c, t, body, reqOpts)
	if err == nil && a.ID.Value() == "" {
		what := "an answer"
		if _, ok := a.Extra["items"]; ok {
			what = "a record list"
		}
		return nil, fmt.Errorf("%w: %s /%s answered with %s, not an element definition with an id", workflow.ErrUnexpectedResponse, t.o.Method, t.path, what)
	}
	return a, err
}
