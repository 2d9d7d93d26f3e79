package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

// schemaOf is the schema of the resource r.
func schemaOf(t *testing.T, r own) resource.SchemaResponse {
	t.Helper()
	var resp resource.SchemaResponse
	r.Schema(t.Context(), resource.SchemaRequest{}, &resp)
	if resp.Diagnostics.HasError() {
		t.Fatal(resp.Diagnostics)
	}
	return resp
}

// stateOf is the state of the schema s holding the model m.
func stateOf(ctx context.Context, t *testing.T, s resource.SchemaResponse, m any) tfsdk.State {
	t.Helper()
	st := tfsdk.State{Schema: s.Schema}
	if d := st.Set(ctx, m); d.HasError() {
		t.Fatal(d)
	}
	return st
}

// listView is the list view open of crm-accounts whose id is id, with no
// member set.
func listView(id string) viewModel {
	return viewModel{ID: types.StringValue(id), App: types.StringValue("crm-accounts"), Handle: types.StringValue("open"),
		Type: types.StringValue("list"), DisplayOrder: types.Int64Null(), Name: types.StringNull(),
		AllowRecordCreation: types.BoolNull(), Filter: types.StringNull(), Sort: types.StringNull(),
		Columns: types.ListNull(types.StringType), Density: types.StringNull(), Rows: types.Int64Null(),
		DisplayByField: types.StringNull(), AllowedFilterFields: types.ListNull(types.StringType),
		AgentID: types.StringNull(), DashboardID: types.StringNull()}
}

// TestViewUpdateBodyFails: when the update body cannot be built from the
// view as held and the configuration, the update fails with a
// diagnostic, sends nothing, and leaves the state as it was.
func TestViewUpdateBodyFails(t *testing.T) {
	ctx := t.Context()
	srv := workflowtest.Start(t)
	id := srv.AddView("crm-accounts", "open", "list", map[string]any{"name": "Open"})
	r := &viewResource{base: base{ws: admin.New(srv.Client()), lists: &runLists{}}}
	s := schemaOf(t, r)
	null := listView(id)
	prior := null
	prior.Name = types.StringValue("Open")
	plan := null
	plan.Name = types.StringValue("bad \xff") // not UTF-8: no JSON body holds it
	state := stateOf(ctx, t, s, prior)
	req := resource.UpdateRequest{Plan: tfsdk.Plan{Schema: s.Schema, Raw: stateOf(ctx, t, s, plan).Raw},
		Config: tfsdk.Config{Schema: s.Schema, Raw: stateOf(ctx, t, s, plan).Raw}, State: state}
	resp := resource.UpdateResponse{State: state}
	srv.ResetRequests()
	r.Update(ctx, req, &resp)
	if d := resp.Diagnostics.Errors(); len(d) != 1 || !strings.Contains(d[0].Detail(), `"/name"`) {
		t.Errorf("diagnostics %v, want one error naming /name", resp.Diagnostics)
	}
	for _, rq := range srv.Requests() {
		if rq.Method != "GET" && strings.HasPrefix(rq.Path, "/v1/") {
			t.Errorf("the update sent %s %s", rq.Method, rq.Path)
		}
	}
	if !resp.State.Raw.Equal(state.Raw) {
		t.Error("the update changed the state")
	}
}
