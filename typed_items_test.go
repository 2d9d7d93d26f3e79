package workflow

import (
	"context"
	"testing"
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
