// Package imports writes the OpenTofu import blocks of every object of
// an app (its automations, views, agents and skills) and of a workspace's
// tables. With them,
// `tofu plan -generate-config-out=generated.tf` writes the configuration
// of each, which then plans with no changes against the workspace it was
// read from.
package imports

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"

	json "github.com/go-json-experiment/json"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
)

// Block is one import block: the resource address to import to and the
// API's identifier of the object.
type Block struct {
	Type, Name, ID string
}

// String is the block in OpenTofu's language.
func (b Block) String() string {
	return fmt.Sprintf("import {\n  to = %s.%s\n  id = %s\n}\n", b.Type, b.Name, strconv.Quote(b.ID))
}

// namer makes the blocks' resource names: valid, and unique per type.
type namer struct {
	used   map[string]bool // the addresses (type.name) given
	blocks []Block
}

// add appends the block of the object name of type typ, importing id:
// named after name, or, when another block of typ has that name, after
// name with the first suffix _2, _3, ... that none has.
func (n *namer) add(typ, name, id string) {
	if n.used == nil {
		n.used = map[string]bool{}
	}
	base := resourceName(name)
	r := base
	for k := 2; n.used[typ+"."+r]; k++ {
		r = base + "_" + strconv.Itoa(k)
	}
	n.used[typ+"."+r] = true
	n.blocks = append(n.blocks, Block{Type: typ, Name: r, ID: id})
}

// Tables returns the import blocks of every table of the workspace, each
// named after the table's name. Their joins and join mappings are
// imported apart (workflow_table_join, workflow_table_join_mappings).
func Tables(ctx context.Context, ws *admin.Workspace) ([]Block, error) {
	var n namer
	for t, err := range ws.Tables.All(ctx, nil) {
		if err != nil {
			return nil, fmt.Errorf("listing the tables: %w", err)
		}
		n.add("workflow_table", t.Name.Value(), t.ID.Value())
	}
	return n.blocks, nil
}

// App returns the import blocks of every automation, view, agent and
// skill of the app alias, in that order, each named after the object's
// name (a view after its handle), made a valid and unique resource name.
func App(ctx context.Context, ws *admin.Workspace, alias string) ([]Block, error) {
	var n namer
	add := n.add
	automations, err := ws.Automations.List(ctx, workflow.Apps, alias)
	if err != nil {
		return nil, fmt.Errorf("listing the automations: %w", err)
	}
	for _, a := range automations {
		var name string
		_ = json.Unmarshal(a.Member("name"), &name)
		add("workflow_automation", name, "apps/"+alias+"/"+a.ID())
	}
	for v, err := range ws.Views.All(ctx, alias, nil) {
		if err != nil {
			return nil, fmt.Errorf("listing the views: %w", err)
		}
		add("workflow_view", v.ClientHandle.Value(), alias+"/"+v.ID.Value())
	}
	for a, err := range ws.Agents.All(ctx, alias, nil) {
		if err != nil {
			return nil, fmt.Errorf("listing the agents: %w", err)
		}
		add("workflow_agent", a.Name.Value(), alias+"/"+a.ID.Value())
	}
	for s, err := range ws.Skills.All(ctx, alias, nil) {
		if err != nil {
			return nil, fmt.Errorf("listing the skills: %w", err)
		}
		add("workflow_skill", s.Name.Value(), alias+"/"+s.ID.Value())
	}
	return n.blocks, nil
}

// Write writes blocks to w.
func Write(w io.Writer, blocks []Block) error {
	for i, b := range blocks {
		if i > 0 {
			if _, err := io.WriteString(w, "\n"); err != nil {
				return err
			}
		}
		if _, err := io.WriteString(w, b.String()); err != nil {
			return err
		}
	}
	return nil
}

// resourceName makes s a resource name: lower case, letters, digits and
// underscores, starting with a letter or an underscore; "unnamed" for
// one with none of those.
func resourceName(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "_"):
			b.WriteByte('_')
		}
	}
	n := strings.TrimSuffix(b.String(), "_")
	switch {
	case n == "":
		return "unnamed"
	case unicode.IsDigit(rune(n[0])):
		return "_" + n
	}
	return n
}
