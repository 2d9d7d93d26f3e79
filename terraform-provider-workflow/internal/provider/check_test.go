package provider

import (
	"errors"
	"testing"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
)

// TestCheck: a body the SDK accepts passes the check, one it refuses is
// its *workflow.ValidationError, and neither is sent (the check client's
// host cannot be reached: a call that went out would fail otherwise).
func TestCheck(t *testing.T) {
	tests := []struct {
		name  string
		rt    workflow.RecordType
		alias string
		field string // "" when the check passes
	}{
		{"accepted", workflow.Apps, "crm-accounts", ""},
		{"bad record type", "records", "crm-accounts", "record type"},
		{"alias not a path segment", workflow.Apps, "a/b", "alias"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := check(func(ws *admin.Workspace, opt workflow.RequestOption) error {
				_, err := ws.Automations.Create(t.Context(), tt.rt, tt.alias, admin.Automation(`{"name":"x"}`), opt)
				return err
			})
			var ve *workflow.ValidationError
			switch {
			case tt.field == "" && err != nil:
				t.Fatalf("check = %v, want nil", err)
			case tt.field != "" && (!errors.As(err, &ve) || ve.Field != tt.field):
				t.Fatalf("check = %v, want a ValidationError of %s", err, tt.field)
			}
		})
	}
}
