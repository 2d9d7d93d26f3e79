package workflow_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestModulesCarryTheLicense: each module published beside this one (the
// provider, the OpenTelemetry adapter) has the repository's LICENSE, as
// its module zip and the provider's release archives need it.
func TestModulesCarryTheLicense(t *testing.T) {
	want, err := os.ReadFile("LICENSE")
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{"otel", "terraform-provider-workflow"} {
		got, err := os.ReadFile(filepath.Join(dir, "LICENSE"))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s/LICENSE is not the repository's (%v): copy LICENSE there", dir, err)
		}
	}
}
