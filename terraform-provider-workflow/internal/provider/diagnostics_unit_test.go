package provider

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
)

func TestOnAttribute(t *testing.T) {
	attrs := bodyAttrs[admin.TableCreateRequest](camel("", "categoryId"), map[string]string{"fields[*].cloud.snowflake.type": "fields[*].column_type"}).
		with(bodyAttrs[workflow.GroupRequest](map[string]string{"userIds[*]": "member_ids"})).with(wireAttrs{"alias": "app"})
	other := errors.New("not a check's")
	tests := []struct {
		name   string
		err    error
		attrs  wireAttrs
		path   path.Path // empty: on the resource
		detail string
	}{
		{name: "a nested member, on its attribute in the configuration's words",
			err:   &workflow.ValidationError{Field: "TableCreateRequest.Fields[2].Cloud.Snowflake.Type", Rule: "must be one of TEXT"},
			attrs: attrs, path: path.Root("fields").AtListIndex(2).AtName("column_type"), detail: "fields[2].column_type must be one of TEXT"},
		{name: "a member named by its JSON name, not as the SDK names it: not mapped",
			err:   &workflow.ValidationError{Field: "TableCreateRequest.fields[2].cloud.snowflake.type", Rule: "must be one of TEXT"},
			attrs: attrs, detail: "workflow: invalid TableCreateRequest.fields[2].cloud.snowflake.type: must be one of TEXT"},
		{name: "a top-level member, snake case",
			err:   &workflow.ValidationError{Field: "TableCreateRequest.CategoryID", Rule: "must be a UUID"},
			attrs: attrs, path: path.Root("category_id"), detail: "category_id must be a UUID"},
		{name: "an argument: no type before it",
			err:   &workflow.ValidationError{Field: "alias", Rule: "must not be empty"},
			attrs: attrs, path: path.Root("app"), detail: "app must not be empty"},
		{name: "a set's element: the set",
			err:   &workflow.ValidationError{Field: "GroupRequest.UserIDs[1]", Rule: "must be a UUID"},
			attrs: attrs, path: path.Root("member_ids"), detail: "member_ids must be a UUID"},
		{name: "a member not mapped: on the resource, as the SDK says it",
			err:   &workflow.ValidationError{Field: "TableCreateRequest.dataView", Rule: "x"},
			attrs: attrs, detail: "workflow: invalid TableCreateRequest.dataView: x"},
		{name: "a member not mapped, with a whole attribute: on it",
			err:   &workflow.ValidationError{Field: "ViewRequest.view", Rule: "x"},
			attrs: wireAttrs{"*": "definition"}, path: path.Root("definition"), detail: "workflow: invalid ViewRequest.view: x"},
		{name: "an attrError, on its attribute",
			err:   attrError{"tools", "element 0 must be one JSON object"},
			attrs: attrs, path: path.Root("tools"), detail: "tools element 0 must be one JSON object"},
		{name: "another error, on the resource", err: other, attrs: attrs, detail: "not a check's"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var d diag.Diagnostics
			onAttribute(&d, "Invalid thing", tt.err, tt.attrs)
			if len(d) != 1 {
				t.Fatalf("%d diagnostics, want one: %v", len(d), d)
			}
			got := d[0]
			if got.Summary() != "Invalid thing" || got.Detail() != tt.detail {
				t.Errorf("got %q: %q, want %q", got.Summary(), got.Detail(), tt.detail)
			}
			wp, ok := got.(diag.DiagnosticWithPath)
			switch {
			case len(tt.path.Steps()) == 0 && ok:
				t.Errorf("on %s, want the resource", wp.Path())
			case len(tt.path.Steps()) > 0 && (!ok || !wp.Path().Equal(tt.path)):
				t.Errorf("on %v, want %s", got, tt.path)
			}
		})
	}
}

func TestObjectRule(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`"open"`, "must be one JSON object, not string"},
		{`{"a":}`, "must be one JSON object: "},
	} {
		_, err := canonicalOf(tt.in)
		if got := objectRule(err); len(got) < len(tt.want) || got[:len(tt.want)] != tt.want {
			t.Errorf("objectRule(%s) = %q, want it to start %q", tt.in, got, tt.want)
		}
	}
}

func canonicalOf(s string) ([]byte, error) { return admin.Canonical([]byte(s)) }

// Each family's map names a body's members by their Go fields, as the
// SDK's checks do, and matches them exactly: a member spelt otherwise
// (its JSON name, or its Go name in another case) is not mapped, and is
// reported as the SDK says it, on the attribute "*" names or else on the
// resource.
func TestWireAttrsByGoField(t *testing.T) {
	fields := path.Root("fields")
	tests := []struct {
		attrs wireAttrs
		field string
		at    path.Path // empty: on the resource
		named string    // the attribute in the detail; "": not mapped, the SDK's words
	}{
		{tableAttrs, "TableCreateRequest.CategoryID", path.Root("category_id"), "category_id"},
		{tableAttrs, "TableCreateRequest.CategoryId", path.Empty(), ""},
		{tableAttrs, "TableCreateRequest.categoryId", path.Empty(), ""},
		{tableAttrs, "TableCreateRequest.OrderBy", path.Root("order_by"), "order_by"},
		{tableAttrs, "TableCreateRequest.Fields[3].Cloud.Snowflake.ColumnName", fields.AtListIndex(3).AtName("column_name"), "fields[3].column_name"},
		{tableAttrs, "TableCreateRequest.Fields[3].Cloud.Snowflake.Columnname", path.Empty(), ""},
		{tableAttrs, "TableCreateRequest.Fields[1].Cloud.Tags[4]", fields.AtListIndex(1).AtName("tags"), "fields[1].tags"},
		{tableAttrs, "TableCreateRequest.Fields[1].Reference.Aggregation", fields.AtListIndex(1).AtName("aggregation"), "fields[1].aggregation"},
		{tableAttrs, "TableCreateRequest.fields[1].reference.aggregation", path.Empty(), ""},
		{tableAttrs, "TableCreateRequest.Fields[0].Calculation.Text", fields.AtListIndex(0).AtName("text"), "fields[0].text"},
		{joinAttrs, "TableJoinInput.JoinOn[2].LeftFieldID", path.Root("on").AtListIndex(2).AtName("left_field_id"), "on[2].left_field_id"},
		{joinAttrs, "TableJoinInput.JoinOn[2].LeftFieldId", path.Empty(), ""},
		{joinAttrs, "TableJoinInput.joinOn[2].rightFieldId", path.Empty(), ""},
		{joinAttrs, "TableJoinInput.Type", path.Root("type"), "type"},
		{elementAttrs, "NewElement.AllowForwardedEmailIngestion", path.Root("allow_forwarded_email_ingestion"), "allow_forwarded_email_ingestion"},
		{elementAttrs, "NewElement.WorkflowValuePerAutomation", path.Root("workflow_value_per_automation"), "workflow_value_per_automation"},
		{elementAttrs, "NewElement.workflowValuePerAutomation", path.Empty(), ""},
		{viewAttrs, "ViewRequest.View.Kanban.AllowRecordCreation", path.Root("allow_record_creation"), "allow_record_creation"},
		{viewAttrs, "ViewRequest.View.Calendar.AllowedFilterFields[1]", path.Root("allowed_filter_fields").AtListIndex(1), "allowed_filter_fields[1]"},
		{viewAttrs, "ViewRequest.View.Dashboard.DashboardID", path.Root("dashboard_id"), "dashboard_id"},
		{viewAttrs, "ViewRequest.view.kanban.allowRecordCreation", path.Empty(), ""},
		{viewAttrs, "alias", path.Root("app"), "app"},
		{viewAttrs, "Alias", path.Empty(), ""},
		{groupAttrs, "GroupRequest.UserIDs[1]", path.Root("member_ids"), "member_ids"},
		{groupAttrs, "GroupRequest.UserIds[1]", path.Root("member_ids"), ""},
		{groupAttrs, "GroupRequest.Name", path.Root("name"), "name"},
		{groupAttrs, "GroupRequest.name", path.Root("member_ids"), ""},
		{userAttrs, "NewUser.FirstName", path.Root("first_name"), "first_name"},
		{userAttrs, "NewUser.firstName", path.Root("email"), ""},
		{userAttrs, "NewUser.JobTitle", path.Root("job_title"), "job_title"},
		{automationAttrs, "record type", path.Root("record_type"), "record_type"},
		{automationAttrs, "Record type", path.Root("workflow"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.field, func(t *testing.T) {
			var d diag.Diagnostics
			onAttribute(&d, "Invalid thing", &workflow.ValidationError{Field: tt.field, Rule: "is wrong"}, tt.attrs)
			detail := tt.named + " is wrong"
			if tt.named == "" {
				detail = "workflow: invalid " + tt.field + ": is wrong"
			}
			if len(d) != 1 || d[0].Detail() != detail {
				t.Fatalf("got %v, want one diagnostic saying %q", d, detail)
			}
			wp, ok := d[0].(diag.DiagnosticWithPath)
			switch {
			case len(tt.at.Steps()) == 0 && ok:
				t.Errorf("on %s, want the resource", wp.Path())
			case len(tt.at.Steps()) > 0 && (!ok || !wp.Path().Equal(tt.at)):
				t.Errorf("on %v, want %s", d[0], tt.at)
			}
		})
	}
}

// What the SDK's checks refuse in a family's body lands on the attribute
// that sets the member: the maps' names are the SDK's own.
func TestWireAttrsOfChecks(t *testing.T) {
	ctx := t.Context()
	bad := admin.TableCreateRequest{Name: "n", Handle: "h", Source: checkUUID, CategoryID: checkUUID,
		Fields: []admin.TableFieldInput{{Calculation: &admin.TableCalculationField{Name: new("ok"), Text: new("1")}},
			{Cloud: &admin.TableCloudField{Name: "c", Snowflake: &admin.TableColumn{ColumnName: "C", Type: "STRING"}}}}}
	for _, tt := range []struct {
		name  string
		attrs wireAttrs
		call  func() error
		at    path.Path
	}{
		{"a table's field's column type", tableAttrs, func() error {
			return check(func(ws *admin.Workspace, opt workflow.RequestOption) error {
				_, err := ws.Tables.Create(ctx, bad, opt)
				return err
			})
		}, path.Root("fields").AtListIndex(1).AtName("column_type")},
		{"an element's category", elementAttrs, func() error {
			return check(func(ws *admin.Workspace, opt workflow.RequestOption) error {
				_, err := ws.Elements.Create(ctx, admin.NewElement{Name: "x", CategoryID: "not-a-uuid"}, opt)
				return err
			})
		}, path.Root("category_id")},
		{"a join's pair's field", joinAttrs, func() error {
			return check(func(ws *admin.Workspace, opt workflow.RequestOption) error {
				_, err := ws.Tables.Joins.Create(ctx, checkUUID, admin.TableJoinInput{Source: new(checkUUID), Type: new(admin.JoinLeft),
					JoinOn: []admin.TableJoinOn{{LeftFieldID: checkUUID, RightFieldID: checkUUID}, {LeftFieldID: "x", RightFieldID: checkUUID}}}, opt)
				return err
			})
		}, path.Root("on").AtListIndex(1).AtName("left_field_id")},
		{"a join's type", joinAttrs, func() error {
			return check(func(ws *admin.Workspace, opt workflow.RequestOption) error {
				_, err := ws.Tables.Joins.Create(ctx, checkUUID, admin.TableJoinInput{Source: new(checkUUID),
					JoinOn: []admin.TableJoinOn{{LeftFieldID: checkUUID, RightFieldID: checkUUID}}}, opt)
				return err
			})
		}, path.Root("type")},
		{"a view's app", viewAttrs, func() error {
			return check(func(ws *admin.Workspace, opt workflow.RequestOption) error {
				_, err := ws.Views.Create(ctx, "a/b", "h", admin.ViewRequest{}, opt)
				return err
			})
		}, path.Root("app")},
		{"a group's member", groupAttrs, func() error {
			return checkRoot(func(c *workflow.Client, opt workflow.RequestOption) error {
				_, err := c.Groups.Create(ctx, workflow.GroupRequest{Name: new("g"), UserIDs: []string{checkUUID, "not-a-uuid"}}, opt)
				return err
			})
		}, path.Root("member_ids")},
		{"a user's e-mail", userAttrs, func() error {
			return checkRoot(func(c *workflow.Client, opt workflow.RequestOption) error {
				_, err := c.Users.Create(ctx, workflow.NewUser{Email: "not an address", FirstName: "A", LastName: "B"}, opt)
				return err
			})
		}, path.Root("email")},
		{"an automation's record type", automationAttrs, func() error {
			return check(func(ws *admin.Workspace, opt workflow.RequestOption) error {
				_, err := ws.Automations.Create(ctx, "records", "crm", admin.Automation(`{"name":"x"}`), opt)
				return err
			})
		}, path.Root("record_type")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			ve, ok := errors.AsType[*workflow.ValidationError](err)
			if !ok {
				t.Fatalf("the check gave %v, want a *workflow.ValidationError", err)
			}
			var d diag.Diagnostics
			onAttribute(&d, "Invalid thing", err, tt.attrs)
			if len(d) != 1 {
				t.Fatalf("%s gave %v, want one diagnostic", ve.Field, d)
			}
			if wp, ok := d[0].(diag.DiagnosticWithPath); !ok || !wp.Path().Equal(tt.at) || !strings.HasSuffix(d[0].Detail(), " "+ve.Rule) {
				t.Errorf("%s gave %v, want it on %s", ve.Field, d, tt.at)
			}
		})
	}
}

// goName names a member by the Go fields of its body's type, through
// pointers and lists, and as the argument a field tagged arg names; a
// member the type has not is an error, and bodyAttrs panics on it.
func TestGoName(t *testing.T) {
	type inner struct {
		LeftID string `json:"leftId,omitzero"`
	}
	type body struct {
		Pairs  *[]*inner         `json:"pairs"`
		Matrix [][]inner         `json:"matrix"`
		IDs    []string          `json:"ids" arg:"userIDs"`
		Loose  *inner            `json:"loose"`
		Extra  map[string]string `json:",embed"`
	}
	typ := reflect.TypeFor[body]()
	for _, tt := range []struct{ member, want, err string }{
		{"pairs[*].leftId", "Pairs[*].LeftID", ""},
		{"matrix[*][*].leftId", "Matrix[*][*].LeftID", ""},
		{"loose.leftId", "Loose.LeftID", ""},
		{"ids[*]", "userIDs[*]", ""},
		{"ids", "userIDs", ""},
		{"Loose", "", `has no member "Loose"`},
		{"loose.leftID", "", `has no member "leftID"`},
		{"loose[*]", "", "loose is no list"},
		{"pairs[*][*]", "", "pairs is no list"},
		{"", "", `has no member ""`},
	} {
		got, err := goName(typ, tt.member)
		if got != tt.want || (err == nil) != (tt.err == "") || err != nil && !strings.Contains(err.Error(), tt.err) {
			t.Errorf("goName(%q) = %q, %v; want %q, an error saying %q", tt.member, got, err, tt.want, tt.err)
		}
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), `has no member "nmae"`) {
			t.Errorf("bodyAttrs of a member the body has not recovered %v, want a panic naming it", r)
		}
	}()
	bodyAttrs[admin.NewElement](map[string]string{"name": "name"}, map[string]string{"nmae": "name"})
}
