package provider

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
)

// Every body is checked by the SDK's own checks when a configuration is
// validated and planned, with no request: the resource calls the very
// SDK method that would write it, on a workspace whose every call is
// stopped before its first attempt is sent (workflow.WithAttemptHook).
// A body the SDK refuses is its *workflow.ValidationError, naming the
// member and the rule; a body it accepts ends at the hook.

// errNotSent ends a checked call before anything is sent.
var errNotSent = errors.New("checked, not sent")

// checkWorkspace is the workspace checks call through; its client is never
// used to send (every call is given notSent), and needs no provider
// configuration, so `tofu validate` checks too.
var checkWorkspace = admin.New(checkClient)

// checkClient is checkWorkspace's client, which checks of the root
// package's calls (users, groups) call through.
var checkClient = func() *workflow.Client {
	c, err := workflow.NewClient(
		workflow.WithCredentials("check", "check"),
		workflow.WithEndpoint("https://checks.invalid/v1", "https://checks.invalid"),
	)
	if err != nil {
		panic("provider: the check client: " + err.Error())
	}
	return c
}()

// notSent is the per-call option that stops a call before its first
// attempt.
var notSent = workflow.WithAttemptHook(func(context.Context) (func(workflow.AttemptResult), error) {
	return nil, errNotSent
})

// check runs call, an SDK call on checkWorkspace given notSent, and
// returns the error that stopped it before sending, nil when its
// arguments and body passed every check.
func check(call func(ws *admin.Workspace, opt workflow.RequestOption) error) error {
	err := call(checkWorkspace, notSent)
	if errors.Is(err, errNotSent) {
		return nil
	}
	return err
}

// checkRoot is check for a call of the root package, on checkClient.
func checkRoot(call func(c *workflow.Client, opt workflow.RequestOption) error) error {
	return check(func(_ *admin.Workspace, opt workflow.RequestOption) error { return call(checkClient, opt) })
}

// validated ends a ValidateConfig whose body was built with err: an
// attrError is reported on its attribute, as what; else call, an SDK call
// given the body, is checked, and what it refuses is reported as what, on
// the attribute attrs maps its member to (onAttribute).
func validated(d *diag.Diagnostics, what string, err error, attrs wireAttrs, call func(ws *admin.Workspace, opt workflow.RequestOption) error) {
	if err == nil {
		err = check(call)
	}
	if err != nil {
		onAttribute(d, what, err, attrs)
	}
}

// wireAttrs maps a member of a body, as the SDK's checks name it after
// the body's type (TableCreateRequest.Fields[0].Cloud.Snowflake.Type: the
// key is Fields[*].Cloud.Snowflake.Type, the body's Go fields), or an
// argument, by the name the SDK gives it (alias, record type), to the
// attribute that sets it, in the attribute's notation
// (fields[*].column_type): a refusal is reported on that attribute, in
// the configuration's words. Names match exactly: bodyAttrs derives a
// body's from its Go type. The key "*" names the attribute a member not
// listed is reported on, as the SDK says it.
type wireAttrs map[string]string

// indexes are the list indexes of a member's name.
var indexes = regexp.MustCompile(`\[(\d+)\]`)

// onAttribute reports err, a check's refusal of a body, as what: an
// attrError on its attribute; a *workflow.ValidationError whose member
// attrs maps on that attribute, as "<attribute> <rule>"; anything else on
// the resource, as the SDK says it.
func onAttribute(d *diag.Diagnostics, what string, err error, attrs wireAttrs) {
	if e, ok := errors.AsType[attrError](err); ok {
		d.AddAttributeError(path.Root(e.attr), what, e.Error())
		return
	}
	ve, ok := errors.AsType[*workflow.ValidationError](err)
	if !ok {
		d.AddError(what, err.Error())
		return
	}
	member := ve.Field
	if typ, rest, ok := strings.Cut(member, "."); ok && typ != "" && unicode.IsUpper(rune(typ[0])) {
		member = rest // the body's type: not the configuration's word
	}
	var at []string
	for _, m := range indexes.FindAllStringSubmatch(member, -1) {
		at = append(at, m[1])
	}
	attr, ok := attrs[indexes.ReplaceAllString(member, "[*]")]
	if !ok {
		if whole, ok := attrs["*"]; ok { // the attribute that holds every other member
			d.AddAttributeError(path.Root(whole), what, err.Error())
			return
		}
		d.AddError(what, err.Error())
		return
	}
	p, name := path.Empty(), ""
	for i, seg := range strings.Split(attr, ".") {
		field, star := strings.CutSuffix(seg, "[*]")
		if i == 0 {
			p = path.Root(field)
		} else {
			p, name = p.AtName(field), name+"."
		}
		name += field
		if star && len(at) > 0 {
			n, _ := strconv.Atoi(at[0])
			p, name, at = p.AtListIndex(n), name+"["+at[0]+"]", at[1:]
		}
	}
	d.AddAttributeError(p, what, name+" "+ve.Rule)
}

// bodyAttrs maps members of a body of type T to the attributes that set
// them: each key of attrs is a member's JSON name in T, dotted, with [*]
// for an element of a list (fields[*].cloud.snowflake.type), and becomes
// its name as the SDK's checks give it, by T's Go fields
// (Fields[*].Cloud.Snowflake.Type). A name T has no member of is the
// provider's mistake: bodyAttrs panics, when the package is loaded.
func bodyAttrs[T any](attrs ...map[string]string) wireAttrs {
	out := wireAttrs{}
	for _, a := range attrs {
		for member, attr := range a {
			name, err := goName(reflect.TypeFor[T](), member)
			if err != nil {
				panic("provider: " + err.Error())
			}
			out[name] = attr
		}
	}
	return out
}

// goName names member, a JSON name in a body of type t (see bodyAttrs),
// as the SDK's checks do: each struct field by its Go name, an element
// of a list as [*]; a field tagged arg names the argument the body was
// built from in place of all before it (the SDK's rule).
func goName(t reflect.Type, member string) (string, error) {
	name := ""
	for seg := range strings.SplitSeq(member, ".") {
		key, lists := seg, 0
		for s, ok := strings.CutSuffix(key, "[*]"); ok; s, ok = strings.CutSuffix(s, "[*]") {
			key, lists = s, lists+1
		}
		f, ok := jsonField(t, key)
		if !ok {
			return "", fmt.Errorf("%s has no member %q (in %s)", t, key, member)
		}
		if arg := f.Tag.Get("arg"); arg != "" {
			name = arg
		} else if name != "" {
			name += "." + f.Name
		} else {
			name = f.Name
		}
		t = f.Type
		for range lists {
			for t.Kind() == reflect.Pointer {
				t = t.Elem()
			}
			if t.Kind() != reflect.Slice && t.Kind() != reflect.Array {
				return "", fmt.Errorf("%s is no list (in %s)", key, member)
			}
			t, name = t.Elem(), name+"[*]"
		}
	}
	return name, nil
}

// jsonField is the field of the struct type t (or of what t points to)
// whose JSON name is key, by its json tag.
func jsonField(t reflect.Type, key string) (reflect.StructField, bool) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() == reflect.Struct && key != "" {
		for f := range t.Fields() {
			if tag, _, _ := strings.Cut(f.Tag.Get("json"), ","); tag == key {
				return f, true
			}
		}
	}
	return reflect.StructField{}, false
}

// camel maps each member (its JSON name, after prefix) to the attribute
// of the same name in snake case: allowRecordCreation to
// allow_record_creation; for bodyAttrs.
func camel(prefix string, members ...string) map[string]string {
	out := map[string]string{}
	for _, m := range members {
		var b strings.Builder
		for _, r := range m {
			if unicode.IsUpper(r) {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(r))
		}
		out[prefix+m] = b.String()
	}
	return out
}

// with adds the entries of more to a.
func (a wireAttrs) with(more wireAttrs) wireAttrs {
	maps.Copy(a, more)
	return a
}
