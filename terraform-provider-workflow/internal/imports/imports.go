// Package imports writes the OpenTofu import blocks of the objects of a
// workspace the API can find, family by family (Options): an app's
// automations, views, agents and skills; an element and its automations;
// the tables with their joins and the value mappings of the joins' field
// pairs; the users; the groups with the e-mail domains of the dynamic
// ones. With them, `tofu plan -generate-config-out=generated.tf` writes
// the configuration of each, which then plans with no changes against the
// workspace it was read from.
//
// Apps, flows, search tables and the organisation's domains are not
// found: the API lists none of them (and reads no app or flow), so they
// are imported by their ids, with blocks written by hand. An app's or an
// element's objects are found from its alias, which the API does not
// list either.
//
// Each block is named after its object (see resourceName), unique per
// resource type over everything one Find (or one of the functions of a
// family) returns, and carries the import id of its resource.
package imports

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	json "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
)

// Block is one import block: the resource address to import to, the
// API's identifier of the object, and a note saying which object it is.
type Block struct {
	Type, Name, ID string
	// Note names the object in the workspace's words ("table
	// \"Accounts\""): a comment above the block, none when empty.
	Note string
}

// String is the block in OpenTofu's language.
func (b Block) String() string {
	var s strings.Builder
	if b.Note != "" {
		s.WriteString("# " + strings.Join(strings.Fields(b.Note), " ") + "\n")
	}
	fmt.Fprintf(&s, "import {\n  to = %s.%s\n  id = %s\n}\n", b.Type, b.Name, strconv.Quote(b.ID))
	return s.String()
}

// Options says which families Find finds.
type Options struct {
	// Apps are the aliases of apps: each one's automations, views,
	// agents and skills.
	Apps []string
	// Elements are the aliases of elements: each element and its
	// automations.
	Elements []string
	// Tables: every table of the workspace, its joins, and the value
	// mappings of the joins' field pairs.
	Tables bool
	// Users: every active user. A deactivated one is left out: the API
	// cannot activate it again, and workflow_user refuses it.
	Users bool
	// Groups: every group, and the e-mail domains of every dynamic group
	// that has some.
	Groups bool
}

// Find returns the import blocks of the families o names, reached
// through c, in the order of o's members: each app's, each element's,
// then the tables', the users' and the groups'. Names are unique per
// resource type over them all.
func Find(ctx context.Context, c *workflow.Client, o Options) ([]Block, error) {
	f := finder{ws: admin.New(c), c: c}
	for _, alias := range o.Apps {
		if err := f.app(ctx, alias); err != nil {
			return nil, err
		}
	}
	for _, alias := range o.Elements {
		if err := f.element(ctx, alias); err != nil {
			return nil, err
		}
	}
	for _, family := range []struct {
		on   bool
		find func(context.Context) error
	}{{o.Tables, f.tables}, {o.Users, f.users}, {o.Groups, f.groups}} {
		if !family.on {
			continue
		}
		if err := family.find(ctx); err != nil {
			return nil, err
		}
	}
	return f.blocks, nil
}

// App returns the import blocks of every automation, view, agent and
// skill of the app alias, in that order.
func App(ctx context.Context, ws *admin.Workspace, alias string) ([]Block, error) {
	f := finder{ws: ws}
	err := f.app(ctx, alias)
	return f.blocks, err
}

// Element returns the import blocks of the element alias and of its
// automations.
func Element(ctx context.Context, ws *admin.Workspace, alias string) ([]Block, error) {
	f := finder{ws: ws}
	err := f.element(ctx, alias)
	return f.blocks, err
}

// Tables returns the import blocks of every table of the workspace, then
// of their joins, then of the value mappings of the joins' field pairs.
func Tables(ctx context.Context, ws *admin.Workspace) ([]Block, error) {
	f := finder{ws: ws}
	err := f.tables(ctx)
	return f.blocks, err
}

// Users returns the import blocks of every active user.
func Users(ctx context.Context, c *workflow.Client) ([]Block, error) {
	f := finder{c: c}
	err := f.users(ctx)
	return f.blocks, err
}

// Groups returns the import blocks of every group, then of the e-mail
// domains of every dynamic group that has some.
func Groups(ctx context.Context, c *workflow.Client) ([]Block, error) {
	f := finder{c: c}
	err := f.groups(ctx)
	return f.blocks, err
}

// finder finds the objects of families and names their blocks.
type finder struct {
	ws *admin.Workspace
	c  *workflow.Client
	namer
}

// automations adds the blocks of the automations of an app or element,
// each named after its workflow's name.
func (f *finder) automations(ctx context.Context, rt workflow.RecordType, alias, of string) error {
	all, err := f.ws.Automations.List(ctx, rt, alias)
	if err != nil {
		return fmt.Errorf("listing the automations of %s %s: %w", of, alias, err)
	}
	for _, a := range all {
		var name string
		_ = json.Unmarshal(a.Member("name"), &name)
		f.add("workflow_automation", name, string(rt)+"/"+alias+"/"+a.ID(), fmt.Sprintf("automation %q of %s %s", name, of, alias))
	}
	return nil
}

// app adds the blocks of the app alias's automations, views (named after
// their handles), agents and skills.
func (f *finder) app(ctx context.Context, alias string) error {
	if err := f.automations(ctx, workflow.Apps, alias, "app"); err != nil {
		return err
	}
	for v, err := range f.ws.Views.All(ctx, alias, nil) {
		if err != nil {
			return fmt.Errorf("listing the views of app %s: %w", alias, err)
		}
		f.add("workflow_view", v.ClientHandle.Value(), alias+"/"+v.ID.Value(),
			fmt.Sprintf("view %q (%s) of app %s", v.Name.Value(), v.ClientHandle.Value(), alias))
	}
	for a, err := range f.ws.Agents.All(ctx, alias, nil) {
		if err != nil {
			return fmt.Errorf("listing the agents of app %s: %w", alias, err)
		}
		f.add("workflow_agent", a.Name.Value(), alias+"/"+a.ID.Value(), fmt.Sprintf("agent %q of app %s", a.Name.Value(), alias))
	}
	for s, err := range f.ws.Skills.All(ctx, alias, nil) {
		if err != nil {
			return fmt.Errorf("listing the skills of app %s: %w", alias, err)
		}
		f.add("workflow_skill", s.Name.Value(), alias+"/"+s.ID.Value(), fmt.Sprintf("skill %q of app %s", s.Name.Value(), alias))
	}
	return nil
}

// element adds the block of the element alias, named after its
// namespace, and those of its automations.
func (f *finder) element(ctx context.Context, alias string) error {
	e, err := f.ws.Elements.Get(ctx, alias)
	if err != nil {
		return fmt.Errorf("reading the element %s: %w", alias, err)
	}
	name := e.Namespace.Value()
	if name == "" {
		name = alias
	}
	f.add("workflow_element", name, e.ID.Value(), fmt.Sprintf("element %q (%s)", e.Name.Value(), alias))
	return f.automations(ctx, workflow.Elements, alias, "element")
}

// tables adds the blocks of every table (named after its name), then of
// every join (after its table's and the joined table's names), then of
// the mappings of every join's field pair that has some (after the
// join's resource name, and the pair's left field's when the join has
// several pairs).
//
// The service's document does not publish the members of a pair's
// "joinMappings"; they are read as workflow_table_join_mappings reads
// them, a connection {"edges": [...]}. A pair whose answer has such a
// connection gets a block when it has edges; one whose answer has no
// connection, or another shape, always does: the API does not tell
// whether it has mappings, and importing a pair without any gives
// mappings = {}.
func (f *finder) tables(ctx context.Context) error {
	var tables []admin.Table
	names := map[string]string{} // table and field ids to names
	for t, err := range f.ws.Tables.All(ctx, nil) {
		if err != nil {
			return fmt.Errorf("listing the tables: %w", err)
		}
		tables = append(tables, t)
		names[t.ID.Value()] = t.Name.Value()
		for _, fd := range t.Fields.Value() {
			names[fd.ID.Value()] = fd.Name.Value()
		}
		f.add("workflow_table", t.Name.Value(), t.ID.Value(), fmt.Sprintf("table %q (%s)", t.Name.Value(), t.Handle.Value()))
	}
	// named returns the name of the object of id, or its id.
	named := func(id string) string {
		if n, ok := names[id]; ok && n != "" {
			return n
		}
		return id
	}
	type pair struct{ table, id, name, note string }
	var pairs []pair
	for _, t := range tables {
		for _, j := range t.Joins.Value() {
			joined := named(j.Source.Value().ID.Value())
			name := t.Name.Value() + " " + joined
			f.add("workflow_table_join", name, t.ID.Value()+"/"+j.ID.Value(),
				fmt.Sprintf("join of %q in table %q (join id %s)", joined, t.Name.Value(), j.ID.Value()))
			name = f.blocks[len(f.blocks)-1].Name // the join's, suffix included
			on := j.OnFields.Value()
			for _, p := range on {
				left, right := named(p.LeftField.Value().ID.Value()), named(p.RightField.Value().ID.Value())
				if !hasMappings(p) {
					continue
				}
				pname := name
				if len(on) > 1 {
					pname += " " + left
				}
				pairs = append(pairs, pair{t.ID.Value(), p.ID.Value(), pname,
					fmt.Sprintf("value mappings of the join of %q in table %q, on %q and %q (pair id %s)",
						joined, t.Name.Value(), left, right, p.ID.Value())})
			}
		}
	}
	for _, p := range pairs {
		f.add("workflow_table_join_mappings", p.name, p.table+"/"+p.id, p.note)
	}
	return nil
}

// hasMappings reports whether the field pair p may have value mappings:
// false only when its answer is a connection whose edges are empty or
// null.
func hasMappings(p admin.TableJoinFields) bool {
	var conn map[string]jsontext.Value
	if json.Unmarshal(p.JoinMappings, &conn) != nil {
		return true
	}
	edges, ok := conn["edges"]
	var list []jsontext.Value
	if !ok || json.Unmarshal(edges, &list) != nil {
		return true
	}
	return len(list) > 0
}

// users adds the blocks of the active users, each named after the
// user's first and last names, or e-mail address when it has none.
func (f *finder) users(ctx context.Context) error {
	for u, err := range f.c.Users.All(ctx, nil) {
		if err != nil {
			return fmt.Errorf("listing the users: %w", err)
		}
		if !u.Active() {
			continue
		}
		name := strings.TrimSpace(u.FirstName + " " + u.LastName)
		if name == "" {
			name = u.Email
		}
		f.add("workflow_user", name, u.ID, "user "+u.Email)
	}
	return nil
}

// groups adds the blocks of every group, each named after its name, then
// of the e-mail domains of every dynamic group that has some, named after
// the group.
func (f *finder) groups(ctx context.Context) error {
	var dynamic []workflow.Group
	for g, err := range f.c.Groups.All(ctx, nil) {
		if err != nil {
			return fmt.Errorf("listing the groups: %w", err)
		}
		f.add("workflow_group", g.Name, g.ID, fmt.Sprintf("group %q", g.Name))
		if g.Dynamic && len(g.Domains) > 0 {
			dynamic = append(dynamic, g)
		}
	}
	for _, g := range dynamic {
		var domains []string
		for _, d := range g.Domains {
			domains = append(domains, d.Domain)
		}
		f.add("workflow_group_email_domains", g.Name, g.ID,
			fmt.Sprintf("e-mail domains of the dynamic group %q: %s", g.Name, strings.Join(domains, ", ")))
	}
	return nil
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
