package workflow

import (
	"context"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEveryEntryPointRefusesANilContext calls every exported method of
// every service that takes a context, with a nil one and otherwise valid
// arguments: each returns (or, for iterators, yields) a *ValidationError
// for "ctx", never panics, and sends nothing.
func TestEveryEntryPointRefusesANilContext(t *testing.T) {
	c, m := newMockClient(t, mockReply(200, "{}"))
	services := map[string]any{
		"Records": c.Records, "Records.Comments": c.Records.Comments, "Records.Watchers": c.Records.Watchers,
		"Records.Related": c.Records.Related, "Attachments": c.Attachments, "Users": c.Users,
		"Groups": c.Groups, "Groups.Members": c.Groups.Members,
	}
	ctxType := reflect.TypeFor[context.Context]()
	arg := func(typ reflect.Type) reflect.Value {
		switch v := reflect.New(typ).Elem(); typ {
		case reflect.TypeFor[RecordType]():
			return reflect.ValueOf(Tasks)
		case reflect.TypeFor[string]():
			return reflect.ValueOf("x")
		case reflect.TypeFor[[]string]():
			return reflect.ValueOf([]string{"ann@example.com"})
		case reflect.TypeFor[Record]():
			return reflect.ValueOf(Record{"a": "b"})
		case reflect.TypeFor[io.Reader]():
			v.Set(reflect.ValueOf(strings.NewReader("x")))
			return v
		case reflect.TypeFor[NewUser]():
			return reflect.ValueOf(NewUser{Email: "ann@example.com", FirstName: "Ann", LastName: "Lee"})
		case reflect.TypeFor[GroupRequest]():
			return reflect.ValueOf(GroupRequest{Name: "g"})
		case reflect.TypeFor[RelatedRef]():
			return reflect.ValueOf(RelatedRef{ID: "1"})
		case reflect.TypeFor[[]RelatedRef]():
			return reflect.ValueOf([]RelatedRef{{ID: "1"}})
		case reflect.TypeFor[Link]():
			return reflect.ValueOf(Link{URL: "https://example.com"})
		case reflect.TypeFor[*Attachment]():
			return reflect.ValueOf(&Attachment{ID: "a"})
		default:
			return v // nil options
		}
	}
	calls := 0
	for name, svc := range services {
		sv := reflect.ValueOf(svc)
		for i := range sv.NumMethod() {
			meth, mt := sv.Method(i), sv.Type().Method(i)
			if meth.Type().NumIn() == 0 || meth.Type().In(0) != ctxType {
				continue
			}
			t.Run(name+"."+mt.Name, func(t *testing.T) {
				in := []reflect.Value{reflect.Zero(ctxType)}
				for j := 1; j < meth.Type().NumIn(); j++ {
					if meth.Type().IsVariadic() && j == meth.Type().NumIn()-1 {
						break
					}
					in = append(in, arg(meth.Type().In(j)))
				}
				out := meth.Call(in)
				err := firstError(t, out)
				var ve *ValidationError
				require.ErrorAs(t, err, &ve)
				assert.Equal(t, "ctx", ve.Field)
			})
			calls++
		}
	}
	assert.GreaterOrEqual(t, calls, 30, "every entry point is covered")
	assert.Empty(t, m.requests(), "nothing is sent")
}

// firstError returns the error a call returned, or the first one its
// iterator yields.
func firstError(t *testing.T, out []reflect.Value) error {
	t.Helper()
	last := out[len(out)-1]
	if last.Kind() != reflect.Func {
		err, _ := last.Interface().(error)
		return err
	}
	var err error
	last.Call([]reflect.Value{reflect.MakeFunc(last.Type().In(0), func(args []reflect.Value) []reflect.Value {
		err, _ = args[1].Interface().(error)
		return []reflect.Value{reflect.ValueOf(false)}
	})})
	return err
}
