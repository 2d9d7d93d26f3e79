package workflow

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTypedItemsWire: every typed record function sends its exact request (see checkWire).
func TestTypedItemsWire(t *testing.T) {
	checkWire(t, []wireCase{
		{name: "AllAs", method: "GET", path: "/tasks/it-requests", query: wirePaged, reply: emptyPage,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				return first(AllAs[wireTask](ctx, c.Records, Tasks, "it-requests", wireListOpts, o...))
			}},
		{name: "AllItemsAs", method: "GET", path: "/tasks/it-requests", query: wirePaged, reply: emptyPage,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				return first(AllItemsAs[wireTask](ctx, c.Records, Tasks, "it-requests", wireListOpts, o...))
			}},
		{name: "GetAs", method: "GET", path: wireRec, reply: mockReply(200, `{"id":"x","Title":"t"}`),
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := GetAs[wireTask](ctx, c.Records, Tasks, "it-requests", odd, o...)
				return err
			}},
		{name: "CreateAs", method: "POST", path: "/tasks/it-requests", reply: mockReply(201, `{"id":"x","Title":"t"}`),
			contentType: "application/json", body: `{"Title":"Printer jams"}`,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := CreateAs(ctx, c.Records, Tasks, "it-requests", wireTask{Title: "Printer jams"}, o...)
				return err
			}},
		{name: "UpdateAs", method: "PUT", path: wireRec, reply: mockReply(200, `{"id":"x","Title":"t"}`),
			contentType: "application/json", body: `{"Title":"Done"}`,
			call: func(ctx context.Context, c *Client, o ...RequestOption) error {
				_, err := UpdateAs(ctx, c.Records, Tasks, "it-requests", odd, wireTask{Title: "Done"}, o...)
				return err
			}},

		// Related items.
	})
}

// wireTask is a typed record for the typed functions' rows.
type wireTask struct {
	ID    string `workflow:"id,omitempty"`
	Title string
}

// AllItemsAs decodes each record straight from the page's text; it must
// give what All followed by Decode gives, item for item: the same values,
// cursors and extra fields, and the same error (the first failing field in
// struct order, with the failing item's cursor) after the same items.
func TestAllItemsAsDecodesAsAllAndDecode(t *testing.T) {
	type task struct {
		ID    string     `workflow:"id"`
		N     int        `workflow:"n"`
		M     int        `workflow:"m"`
		Due   *time.Time `workflow:"due"`
		Note  *string    `workflow:"note"`
		Extra Record     `workflow:",extra"`
	}
	item := func(cursor, data string) string { return `{"data":` + data + `,"cursor":"` + cursor + `"}` }
	tests := []struct {
		name  string
		items []string
	}{
		{"values, escapes, nulls and extra fields", []string{
			item("c1", `{"id":"1","n":"7","due":"2024-05-01T10:00:00.000Z","note":"a\"b\u00e9","x":"kept"}`),
			item("c2", `{"id":"2","n":"","note":null,"due":""}`),
			item("c3", `null`),
			`{"cursor":"c4","other":[1,{"a":2}]}`,
			`null`,
		}},
		{"a bad value after good items", []string{
			item("c1", `{"id":"1","n":"1"}`),
			item("c2", `{"id":"2","n":"x"}`),
			item("c3", `{"id":"3","n":"3"}`),
		}},
		{"two bad values, the first in struct order first: the first in struct order", []string{
			item("c1", `{"n":"x","m":"y"}`),
		}},
		{"two bad values, the first in struct order last: the first in struct order", []string{
			item("c1", `{"m":"y","n":"x"}`),
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := `{"items":[` + strings.Join(tt.items, ",") + `],"total":9,"paging":{"has_next_page":false}}`
			c, _ := newMockClient(t, mockReply(200, body))
			type result struct {
				item Item[task]
				err  string
			}
			var want, got []result
			for rec, err := range c.Records.All(t.Context(), Tasks, "it", nil) {
				require.NoError(t, err)
				var v task
				if err := Decode(rec.Data, &v); err != nil {
					var de *DecodeError
					require.ErrorAs(t, err, &de)
					de.Cursor = rec.Cursor
					want = append(want, result{Item[task]{Cursor: rec.Cursor}, err.Error() + " at " + de.Cursor})
					break
				}
				want = append(want, result{Item[task]{Value: v, Cursor: rec.Cursor}, ""})
			}
			for it, err := range AllItemsAs[task](t.Context(), c.Records, Tasks, "it", nil) {
				if err != nil {
					var de *DecodeError
					require.ErrorAs(t, err, &de)
					got = append(got, result{it, err.Error() + " at " + de.Cursor})
					continue // the iteration ends by itself
				}
				got = append(got, result{it, ""})
			}
			assert.Equal(t, want, got)
			// A pointer T gets a value for every record, a null one too.
			for it, err := range AllItemsAs[*task](t.Context(), c.Records, Tasks, "it", nil) {
				if err == nil {
					assert.NotNil(t, it.Value)
				}
			}
			if last := got[len(got)-1]; strings.Contains(tt.name, "struct order") {
				assert.Contains(t, last.err, `field "n"`, "the first failing field in struct order")
			}
		})
	}
}
