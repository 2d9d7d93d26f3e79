package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/go-json-experiment/json/jsontext"
)

// kind is what an object is: an automation or a view.
type kind string

const (
	automationKind kind = "automation"
	viewKind       kind = "view"
)

// withArticle is k after "a" or "an".
func (k kind) withArticle() string {
	if k == automationKind {
		return "an automation"
	}
	return "a view"
}

// keyMember is the member that names an object of kind k, the same in
// every workspace: plans match objects by it.
func keyMember(k kind) string {
	if k == automationKind {
		return "name"
	}
	return "handle"
}

// object is an automation or a view in its write form, canonical.
type object struct {
	kind kind
	// key is the object's keyMember; keyed is false when it has none, or
	// not as a string.
	key   string
	keyed bool
	form  jsontext.Value // canonical
	// id is the object's id in the workspace it was read from (an
	// automation's update and delete take it); file, the file it was read
	// from. Either names the object in messages.
	id, file string
}

// newObject holds b, the write form of an object of kind k, in canonical
// form.
func newObject(k kind, b []byte) (*object, error) {
	form, err := canonical(k, b)
	if err != nil {
		return nil, err
	}
	key, keyed := text(members(form)[keyMember(k)])
	return &object{kind: k, key: key, keyed: keyed, form: form}, nil
}

// where names o by its id or file, for messages.
func (o *object) where() string {
	switch {
	case o.file != "":
		return o.file
	case o.id != "":
		return "id " + o.id
	}
	return ""
}

// label is how a name or a handle is printed, everywhere: as it is, or,
// when that would be unclear (empty, blanks at an end, characters that do
// not print), Go-quoted.
func label(s string) string {
	if s == "" || strings.TrimSpace(s) != s || strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
		return strconv.Quote(s)
	}
	return s
}

// pathName is how a change's path is printed.
func pathName(p string) string {
	if p == "" {
		return "the whole object"
	}
	return p
}

// action is what a plan does with an object.
type action int

const (
	same   action = iota // the target's object is as the source's
	create               // the source's object is missing from the target
	update               // the target's object differs from the source's
	remove               // only in the target, and -prune deletes it
	keep                 // only in the target, and left as it is
)

// step is what a plan does with the object of one key.
type step struct {
	act      action
	kind     kind
	key      string
	src, dst *object // the source's and the target's, where they have one
	changes  []change
	flags    []string // members that hold ids of a workspace
}

// plan is what it takes to make the target's objects those of the source.
type plan struct {
	steps []step
	// problems block -apply: duplicate keys, objects without a key.
	problems []string
}

// compare plans the objects of one kind, matched by key: the source's
// src, the target's dst. prune deletes the target's objects the source
// does not have, where the API can.
func (p *plan) compare(k kind, src, dst []*object, prune bool) {
	bySrc, byDst := p.index("source", src), p.index("target", dst)
	for _, key := range names(bySrc, byDst) {
		s, d := bySrc[key], byDst[key]
		if len(s) > 1 || len(d) > 1 {
			continue // a problem already
		}
		st := step{kind: k, key: key}
		switch {
		case len(d) == 0:
			st.act, st.src = create, s[0]
			st.changes = diff("", nil, s[0].form, nil)
		case len(s) == 0:
			st.act, st.dst = keep, d[0]
			if prune && canDelete(k) {
				st.act = remove
			}
		default:
			st.src, st.dst = s[0], d[0]
			if st.changes = diff("", d[0].form, s[0].form, nil); len(st.changes) > 0 {
				st.act = update
			}
		}
		p.steps = append(p.steps, st)
	}
}

// index groups the objects of one side by key, and notes the problems:
// an object without a key, a key more than one object has.
func (p *plan) index(side string, objs []*object) map[string][]*object {
	by := map[string][]*object{}
	for _, o := range objs {
		if !o.keyed {
			p.problems = append(p.problems, fmt.Sprintf("the %s has %s with no %q string (%s): plans match %ss by it",
				side, o.kind.withArticle(), keyMember(o.kind), o.where(), o.kind))
			continue
		}
		by[o.key] = append(by[o.key], o)
	}
	for _, key := range slices.Sorted(maps.Keys(by)) {
		if group := by[key]; len(group) > 1 {
			var where []string
			for _, o := range group {
				where = append(where, o.where())
			}
			p.problems = append(p.problems, fmt.Sprintf("the %s has %d %ss with the %s %s (%s): keep one",
				side, len(group), group[0].kind, keyMember(group[0].kind), label(key), strings.Join(where, ", ")))
		}
	}
	return by
}

// idMembers are the members of a view's configuration that hold ids of
// the workspace's fields, and what the plan says of them.
var idMembers = map[string]string{
	"columns":             "field ids, unverified: no operation reads an app's fields",
	"displayByField":      "a field id, unverified: no operation reads an app's fields",
	"allowedFilterFields": "field ids, unverified: no operation reads an app's fields",
	"dashboardId":         "a dashboard id, unverified: no operation reads dashboards",
}

// flagIDs flags the members of the views to write that hold ids of the
// source workspace: agentIds the target's agents (agents, read on first
// need) do not have are missing, field ids are unverified.
func (p *plan) flagIDs(ctx context.Context, agents func(context.Context) (map[string]bool, error)) error {
	var have map[string]bool
	for i := range p.steps {
		st := &p.steps[i]
		if st.kind != viewKind || (st.act != create && st.act != update) {
			continue
		}
		variants := members(members(st.src.form)["view"])
		for _, variant := range slices.Sorted(maps.Keys(variants)) {
			cfg := members(variants[variant])
			for _, m := range slices.Sorted(maps.Keys(cfg)) {
				path := "/view/" + escapePointer(variant) + "/" + escapePointer(m)
				if note, ok := idMembers[m]; ok {
					st.flags = append(st.flags, path+": "+note)
				}
				id, ok := text(cfg[m])
				if m != "agentId" || !ok {
					continue
				}
				if have == nil {
					var err error
					if have, err = agents(ctx); err != nil {
						return fmt.Errorf("the target's agents: %w", err)
					}
				}
				if !have[id] {
					st.flags = append(st.flags, path+": agent "+id+" is missing: the target's agents list does not hold it")
				}
			}
		}
	}
	return nil
}

// count returns how many steps do a.
func (p *plan) count(a action) int {
	n := 0
	for _, st := range p.steps {
		if st.act == a {
			n++
		}
	}
	return n
}

// changes is how many steps change the target.
func (p *plan) changes() int { return p.count(create) + p.count(update) + p.count(remove) }

// marks are the first column of a plan's lines, by action.
var marks = map[action]string{same: "= same  ", create: "+ create", update: "~ update", remove: "- delete", keep: "? keep  "}

// print writes the plan: one line per object, then its changed members
// (path: old -> new) and flagged members, then the problems.
func (p *plan) print(w io.Writer) {
	for _, st := range p.steps {
		line := marks[st.act] + " " + string(st.kind) + " " + label(st.key)
		switch {
		case st.act == remove:
			line += " (only in the target; -prune)"
		case st.act == keep && canDelete(st.kind):
			line += " (only in the target; -prune would delete it)"
		case st.act == keep:
			line += fmt.Sprintf(" (only in the target; the API has no delete for %ss: left as it is)", st.kind)
		}
		fmt.Fprintln(w, line)
		for _, c := range st.changes {
			fmt.Fprintf(w, "      %s: %s -> %s\n", pathName(c.Path), show(c.Old), show(c.New))
		}
		for _, f := range st.flags {
			fmt.Fprintln(w, "      ! "+f)
		}
	}
	for _, pr := range p.problems {
		fmt.Fprintln(w, "error: "+pr)
	}
	fmt.Fprintf(w, "plan: %d to create, %d to update, %d to delete, %d the same, %d kept (only in the target)\n",
		p.count(create), p.count(update), p.count(remove), p.count(same), p.count(keep))
}

// apply makes the plan's changes in dst, automations first, in the
// plan's order, and stops at the first error. The caller has checked that
// the plan has no problems.
func (p *plan) apply(ctx context.Context, dst *workspace, w io.Writer) error {
	done := map[action]int{}
	for _, st := range p.steps {
		var err error
		switch st.act {
		case create:
			err = dst.create(ctx, st.src)
		case update:
			err = dst.update(ctx, st.src, st.dst.id)
		case remove:
			err = dst.delete(ctx, st.dst)
		default:
			continue
		}
		if err != nil {
			fmt.Fprintf(w, "applied before the error: %d created, %d updated, %d deleted\n", done[create], done[update], done[remove])
			return fmt.Errorf("%s %s %s: %w", strings.TrimSpace(marks[st.act][2:]), st.kind, label(st.key), err)
		}
		done[st.act]++
	}
	fmt.Fprintf(w, "applied: %d created, %d updated, %d deleted\n", done[create], done[update], done[remove])
	return nil
}
