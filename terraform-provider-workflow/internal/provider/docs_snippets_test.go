package provider

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// The documents whose HCL and shell snippets say what a user writes.
const (
	readmePath = "../../README.md"
	guidePath  = "../../templates/guides/git-workflow.md"
)

// fenced returns the bodies of the code blocks of the Markdown file path
// whose language is lang.
func fenced(t *testing.T, path, lang string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range regexp.MustCompile("(?ms)^```"+lang+"\n(.*?)^```\n").FindAllStringSubmatch(string(b), -1) {
		out = append(out, m[1])
	}
	if len(out) == 0 {
		t.Fatalf("%s has no %s block", path, lang)
	}
	return out
}

// blockWith returns the one block of blocks that holds s.
func blockWith(t *testing.T, blocks []string, s string) string {
	t.Helper()
	var found []string
	for _, b := range blocks {
		if strings.Contains(b, s) {
			found = append(found, b)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d blocks hold %q, want 1", len(found), s)
	}
	return found[0]
}

// devOverrideFolder is the folder, under the home directory, that the
// README's dev override names ("/home/me/" stands for the home
// directory).
var devOverrideFolder = regexp.MustCompile(`"` + regexp.QuoteMeta(Address) + `" = "/home/me/([^"]+)"`)

// TestDocsSnippets holds the README's and the guide's snippets to one
// another and to the provider: every source address and dev override key
// is the full address (a short one works with OpenTofu only); the dev
// override's folder is the one the README builds into and the guide
// uses; the mirror's folder is the one the README installs into, under
// the address; automations are written as the service takes them.
func TestDocsSnippets(t *testing.T) {
	docs := map[string]string{}
	for _, p := range []string{readmePath, guidePath} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		docs[p] = string(b)
	}
	examples, err := filepath.Glob("../../examples/*/*.tf")
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob("../../examples/resources/*/*.tf")
	for _, p := range append(examples, more...) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		docs[p] = string(b)
	}
	source := regexp.MustCompile(`source\s*=\s*"([^"]*)"`)
	override := regexp.MustCompile(`(?s)dev_overrides\s*\{\s*\\?n?\s*\\?"([^"\\]*)\\?"`)
	for p, text := range docs {
		for _, m := range source.FindAllStringSubmatch(text, -1) {
			if strings.Contains(m[1], "/") && m[1] != Address {
				t.Errorf("%s: source %q, want the full address %q", p, m[1], Address)
			}
		}
		for _, m := range override.FindAllStringSubmatch(text, -1) {
			if m[1] != Address {
				t.Errorf("%s: a dev override of %q, want the full address %q", p, m[1], Address)
			}
		}
		if strings.Contains(text, "recordCreated") || regexp.MustCompile(`\btrigger\s*=`).MatchString(text) {
			t.Errorf(`%s writes an automation's trigger as "trigger"/"recordCreated"; the service takes triggers = [{ type = "RECORD_CREATED" }]`, p)
		}
	}

	readme, guide := docs[readmePath], docs[guidePath]
	hcl := fenced(t, readmePath, "hcl")
	m := devOverrideFolder.FindStringSubmatch(blockWith(t, hcl, "dev_overrides"))
	if m == nil {
		t.Fatalf("the README's dev override names no folder under /home/me")
	}
	folder := m[1]
	if !strings.Contains(readme, `go build -o "$HOME/`+folder+`/terraform-provider-workflow" .`) {
		t.Errorf("the README does not build into its dev override's folder $HOME/%s", folder)
	}
	if !strings.Contains(guide, `dev="$HOME/`+folder+`"`) {
		t.Errorf("the guide's dev override is not in the README's folder $HOME/%s", folder)
	}

	mirror := regexp.MustCompile(`path\s*=\s*"([^"]+)"`).FindStringSubmatch(blockWith(t, hcl, "filesystem_mirror"))
	if mirror == nil {
		t.Fatal("the README's filesystem mirror has no path")
	}
	sh := strings.Join(fenced(t, readmePath, "sh"), "\n")
	for _, want := range []string{
		mirror[1] + "/" + Address + "/$version/",            // the unpacked layout, from source
		`"$mirror/` + Address + `"`,                         // the packed layout, from a release
		"mirror=" + mirror[1] + "\n",                        // the same mirror
		`-X main.version=$version`,                          // the binary reports its version
		`terraform-provider-workflow_v$version" .`,          // named as a release names it
		`terraform-provider-workflow_${version}_SHA256SUMS`, // checked
	} {
		if !strings.Contains(sh, want) {
			t.Errorf("the README's shell blocks have no %q", want)
		}
	}
}

// TestAccDocsSnippets: the README's provider requirement, with its dev
// override and with its filesystem mirror (unpacked layout, as the README
// builds into it), works with the CLI: validate with the override, init
// from the mirror.
func TestAccDocsSnippets(t *testing.T) {
	acc(t)
	hcl := fenced(t, readmePath, "hcl")
	requirement := blockWith(t, hcl, "required_providers")
	requirement = requirement[:strings.Index(requirement, `provider "workflow"`)] + "provider \"workflow\" {}\n"
	cli := func(t *testing.T, config string) *tofu {
		dir := t.TempDir()
		rc := filepath.Join(dir, "cli.tfrc")
		if err := os.WriteFile(rc, []byte(config), 0o644); err != nil {
			t.Fatal(err)
		}
		return &tofu{t: t, dir: t.TempDir(), path: os.Getenv("TF_ACC_TERRAFORM_PATH"),
			env: append(os.Environ(), "TF_CLI_CONFIG_FILE="+rc, "TF_IN_AUTOMATION=1", "TF_INPUT=0")}
	}

	t.Run("dev override", func(t *testing.T) {
		folder := t.TempDir()
		if out, err := exec.Command("go", "build", "-o", filepath.Join(folder, "terraform-provider-workflow"),
			"github.com/seed-a15e58aa/workflow-go/terraform-provider-workflow").CombinedOutput(); err != nil {
			t.Fatalf("building the provider: %v\n%s", err, out)
		}
		m := devOverrideFolder.FindStringSubmatch(blockWith(t, hcl, "dev_overrides"))
		config := strings.Replace(blockWith(t, hcl, "dev_overrides"), "/home/me/"+m[1], folder, 1)
		config = strings.Replace(config, "direct {}", "filesystem_mirror {\n    path = \""+t.TempDir()+"\"\n  }", 1)
		c := cli(t, config)
		c.write("main.tf", requirement)
		if out, _ := c.run([]string{"validate", "-no-color"}); !strings.Contains(out, "Success") {
			t.Fatalf("validate:\n%s", out)
		}
	})

	t.Run("filesystem mirror", func(t *testing.T) {
		if err := buildBinary(); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(mirror, Address, binaryVersion, runtime.GOOS+"_"+runtime.GOARCH)); err != nil {
			t.Fatal(err)
		}
		config := blockWith(t, hcl, "filesystem_mirror")
		path := regexp.MustCompile(`path\s*=\s*"([^"]+)"`).FindStringSubmatch(config)[1]
		config = strings.Replace(config, path, mirror, 1)
		config = regexp.MustCompile(`(?s)\n  direct \{.*?\n  \}`).ReplaceAllString(config, "")
		c := cli(t, config)
		c.write("main.tf", strings.Replace(requirement, `source = "`+Address+`"`,
			`source = "`+Address+`", version = "`+binaryVersion+`"`, 1))
		out, _ := c.run([]string{"init", "-no-color"})
		if !strings.Contains(out, "Installed "+Address[strings.Index(Address, "/")+1:]+" v"+binaryVersion) &&
			!strings.Contains(out, "Installed "+Address+" v"+binaryVersion) {
			t.Fatalf("init did not install %s %s from the mirror:\n%s", Address, binaryVersion, out)
		}
		c.run([]string{"validate", "-no-color"})
	})
}
