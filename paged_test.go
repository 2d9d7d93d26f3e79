package workflow

import (
	"errors"
	"strings"
	"testing"
)

func TestPagedBodyDecode(t *testing.T) {
	type item struct {
		ID string `json:"id"`
	}
	tests := []struct {
		name    string
		body    string
		want    []string
		total   int
		wantErr string
	}{
		{"page", `{"items":[{"id":"a"},{"id":"b"}],"total":7,"paging":{"has_next_page":true,"end_cursor":"c2"}}`, []string{"a", "b"}, 7, ""},
		{"no total counts the items", `{"items":[{"id":"a"}],"paging":{}}`, []string{"a"}, 1, ""},
		{"unknown members ignored", `{"items":[],"paging":{},"extra":1}`, []string{}, 0, ""},
		{"no items", `{"total":3,"paging":{}}`, nil, 0, `no "items"`},
		{"null items", `{"items":null,"paging":{}}`, nil, 0, `no "items"`},
		{"no paging", `{"items":[]}`, nil, 0, `no "paging"`},
		{"empty body", ``, nil, 0, "empty body"},
		{"null body", `null`, nil, 0, `no "items"`},
		{"bare array", `[{"id":"a"}]`, nil, 0, "unmarshal JSON array"}, // the library says "cannot" or "unable to", at random per process
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b pagedBody[item]
			err := b.decodeBody(strings.NewReader(tc.body))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tc.wantErr)
				}
				if strings.Contains(tc.wantErr, "no ") && !errors.Is(err, errMalformedList) {
					t.Fatalf("err = %v, want errMalformedList", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(b.page.Items) != len(tc.want) || b.page.Total != tc.total {
				t.Fatalf("page = %+v, want items %v total %d", b.page, tc.want, tc.total)
			}
			for i, id := range tc.want {
				if b.page.Items[i].ID != id {
					t.Fatalf("item %d = %q, want %q", i, b.page.Items[i].ID, id)
				}
			}
		})
	}
}
