package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestSameJSON(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		want bool
	}{
		{"key order and white space", `{"a":1,"b":[true,null]}`, "{ \"b\": [ true, null ],\n \"a\": 1 }", true},
		{"number spelling", `{"n":1,"m":[100]}`, `{"n":1.0,"m":[1e2]}`, true},
		{"escaping", `{"s":"\u00e9\/"}`, `{"s":"é/"}`, true},
		{"another number", `{"n":1}`, `{"n":1.5}`, false},
		{"large integers stay exact", `{"n":9007199254740993}`, `{"n":9007199254740992}`, false},
		{"a number is not a string", `{"n":1}`, `{"n":"1"}`, false},
		{"zero is not absent", `{"n":0}`, `{}`, false},
		{"false is not null", `{"b":false}`, `{"b":null}`, false},
		{"nested member", `{"o":{"x":1}}`, `{"o":{"x":2}}`, false},
		{"array order counts", `{"l":[1,2]}`, `{"l":[2,1]}`, false},
		{"not an object", `[1]`, `[1]`, false},
		{"not JSON", `{`, `{`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sameJSON(tt.a, tt.b); got != tt.want {
				t.Errorf("sameJSON(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.want)
			}
			if got := sameJSON(tt.b, tt.a); got != tt.want {
				t.Errorf("sameJSON(%s, %s) = %v, want %v", tt.b, tt.a, got, tt.want)
			}
		})
	}
}

func TestRefreshJSON(t *testing.T) {
	tests := []struct {
		name   string
		prior  types.String
		remote string
		want   types.String
	}{
		{"same meaning keeps the prior spelling", types.StringValue(`{ "b": 1, "a": 2.0 }`), `{"a":2,"b":1}`, types.StringValue(`{ "b": 1, "a": 2.0 }`)},
		{"a change is canonical", types.StringValue(`{"a":1}`), `{ "b": 1, "a": 2 }`, types.StringValue(`{"a":2,"b":1}`)},
		{"no prior", types.StringNull(), `{"z":0, "a":false}`, types.StringValue(`{"a":false,"z":0}`)},
		{"nothing remote", types.StringValue(`{"a":1}`), ``, types.StringNull()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := refreshJSON(tt.prior, []byte(tt.remote)); !got.Equal(tt.want) {
				t.Errorf("refreshJSON(%v, %s) = %v, want %v", tt.prior, tt.remote, got, tt.want)
			}
		})
	}
}
