package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/hashicorp/go-plugin"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
)

// A tofu runs the CLI of TF_ACC_TERRAFORM_PATH by hand in a directory of
// its own, for what the test framework does not drive: import blocks with
// -generate-config-out, and configuration kept in files. The provider is
// served in the test's process and reached through
// TF_REATTACH_PROVIDERS, so nothing is installed.
type tofu struct {
	t    *testing.T
	dir  string
	env  []string
	path string
}

// newTofu serves the provider and returns a CLI working in a new
// directory; it skips t without a CLI.
func newTofu(t *testing.T) *tofu {
	t.Helper()
	acc(t)
	ctx, cancel := context.WithCancel(context.Background())
	configCh, closeCh := make(chan *plugin.ReattachConfig, 1), make(chan struct{})
	go func() {
		err := tf6server.Serve(Address, providerserver.NewProtocol6(New("test")()),
			tf6server.WithDebug(ctx, configCh, closeCh), tf6server.WithLoggingSink(t))
		if err != nil {
			t.Error(err)
		}
	}()
	t.Cleanup(func() { cancel(); <-closeCh })
	rc := <-configCh
	reattach, err := json.Marshal(map[string]any{Address: map[string]any{
		"Protocol": string(rc.Protocol), "ProtocolVersion": rc.ProtocolVersion, "Pid": rc.Pid, "Test": true,
		"Addr": map[string]string{"Network": rc.Addr.Network(), "String": rc.Addr.String()},
	}})
	if err != nil {
		t.Fatal(err)
	}
	return &tofu{t: t, dir: t.TempDir(), path: os.Getenv("TF_ACC_TERRAFORM_PATH"),
		env: append(os.Environ(), "TF_REATTACH_PROVIDERS="+string(reattach), "TF_IN_AUTOMATION=1", "TF_INPUT=0")}
}

// write writes a file of the working directory.
func (c *tofu) write(name, text string) {
	c.t.Helper()
	if err := os.WriteFile(filepath.Join(c.dir, name), []byte(text), 0o644); err != nil {
		c.t.Fatal(err)
	}
}

// read reads a file of the working directory.
func (c *tofu) read(name string) string {
	c.t.Helper()
	b, err := os.ReadFile(filepath.Join(c.dir, name))
	if err != nil {
		c.t.Fatal(err)
	}
	return string(b)
}

// run runs the CLI with args and returns its output and exit status,
// failing the test on a status other than the ones listed (0 if none).
func (c *tofu) run(args []string, ok ...int) (string, int) {
	c.t.Helper()
	cmd := exec.Command(c.path, args...)
	cmd.Dir, cmd.Env = c.dir, c.env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	status := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		status = ee.ExitCode()
	} else if err != nil {
		c.t.Fatal(err)
	}
	if len(ok) == 0 {
		ok = []int{0}
	}
	for _, s := range ok {
		if s == status {
			return out.String(), status
		}
	}
	c.t.Fatalf("tofu %v: exit status %d\n%s", args, status, out.String())
	return "", 0
}

// planChanges plans and returns, for each resource the plan changes, its
// actions and, for an update, the names of the top-level attributes whose
// value changes.
func (c *tofu) planChanges() map[string][]string {
	c.t.Helper()
	c.run([]string{"plan", "-out=tfplan"})
	out, _ := c.run([]string{"show", "-json", "tfplan"})
	var plan struct {
		ResourceChanges []struct {
			Address string
			Change  struct {
				Actions       []string
				Before, After map[string]any
			}
		} `json:"resource_changes"`
	}
	if err := json.Unmarshal([]byte(out), &plan); err != nil {
		c.t.Fatalf("tofu show -json: %v\n%s", err, out)
	}
	changes := map[string][]string{}
	for _, rc := range plan.ResourceChanges {
		if len(rc.Change.Actions) == 1 && rc.Change.Actions[0] == "no-op" {
			continue
		}
		desc := []string{fmt.Sprint(rc.Change.Actions)}
		for k, b := range rc.Change.Before {
			if rc.Change.After != nil && fmt.Sprint(b) != fmt.Sprint(rc.Change.After[k]) {
				desc = append(desc, k)
			}
		}
		slices.Sort(desc[1:])
		changes[rc.Address] = desc
	}
	return changes
}

// stateResource is a resource of the state, as show -json gives it.
type stateResource struct {
	Address, Type string
	Values        map[string]any
}

// resources returns the resources of the state.
func (c *tofu) resources() []stateResource {
	c.t.Helper()
	out, _ := c.run([]string{"show", "-json"})
	var st struct {
		Values struct {
			RootModule struct {
				Resources []stateResource
			} `json:"root_module"`
		}
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		c.t.Fatalf("tofu show -json: %v", err)
	}
	return st.Values.RootModule.Resources
}

// state returns the attribute attr of the resource addr in the state.
func (c *tofu) state(addr, attr string) string {
	c.t.Helper()
	for _, r := range c.resources() {
		if r.Address == addr {
			return fmt.Sprint(r.Values[attr])
		}
	}
	c.t.Fatalf("the state has no %s", addr)
	return ""
}
