package rsql_test

import (
	"fmt"
	"time"

	"github.com/seed-a15e58aa/workflow-go/rsql"
)

// Open tasks that are due before a date. Times are printed in UTC with
// TimeLayout; the ':' inside a single value needs no quoting.
func Example_openTasksDueBefore() {
	due := time.Date(2024, 7, 1, 12, 0, 0, 0, time.FixedZone("CEST", 2*60*60))
	f := rsql.And(
		rsql.Field("Status").Eq("open"),
		rsql.Field("Due Date").Lt(due),
	)
	fmt.Println(f)
	// Output: Status==open;Due Date=lt=2024-07-01T10:00:00.000Z
}

// Status in a list of values.
func ExampleFieldRef_In() {
	fmt.Println(rsql.Field("Status").In("open", "in progress", "blocked"))
	// Output: Status=in=open:"in progress":blocked
}

// Amount between two numbers, and a date range, whose bounds contain ':'
// and are therefore written as two comparisons.
func ExampleFieldRef_Between() {
	fmt.Println(rsql.Field("Amount").Between(100, 2500.75))
	from := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	fmt.Println(rsql.Field("Created").Between(from, from.AddDate(0, 1, 0)))
	// Output:
	// Amount=bt=100:2500.75
	// Created=ge=2024-01-01T00:00:00.000Z;Created=le=2024-02-01T00:00:00.000Z
}

// Case-insensitive contains.
func ExampleFieldRef_ILike() {
	fmt.Println(rsql.Field("Title").ILike("quarterly report"))
	// Output: Title=lki="quarterly report"
}

// An OR under an AND is distributed, since the API has no parentheses;
// alternatives on one field become =in=.
func ExampleOr() {
	f := rsql.And(
		rsql.Or(rsql.Field("Priority").Eq("high"), rsql.Field("Escalated").Eq(true)),
		rsql.Field("Status").Ne("closed"),
	)
	fmt.Println(f)
	fmt.Println(rsql.Or(rsql.Field("Owner").Eq("ann"), rsql.Field("Owner").Eq("bob")))
	// Output:
	// Priority==high;Status!=closed,Escalated==true;Status!=closed
	// Owner=in=ann:bob
}

// Builder mistakes are reported by Validate (and MarshalText).
func ExampleExpr_validate() {
	f := rsql.And(rsql.Field("Status").Eq("open"), rsql.Field("Tags").In())
	fmt.Println(f.Validate())
	fmt.Printf("%q\n", f.String())
	// Output:
	// rsql: field "Tags": =in= needs at least one value
	// ""
}

// Parse a filter pasted from elsewhere, inspect it, and print it in the
// form the API accepts.
func ExampleParse() {
	e, err := rsql.Parse(`(status==open, status==pending) ; assignee!in=(ann,bob) ; title=lki='q3 report'`)
	if err != nil {
		fmt.Println(err)
		return
	}
	rsql.Walk(e, func(x rsql.Expr) bool {
		if c, ok := x.(*rsql.Comparison); ok {
			fmt.Println(c.Field, c.Op, c.Values)
		}
		return true
	})
	fmt.Println(e)
	// Output:
	// status == [{open false}]
	// status == [{pending false}]
	// assignee =out= [{ann false} {bob false}]
	// title =lki= [{q3 report false}]
	// status=in=open:pending;assignee=out=ann:bob;title=lki="q3 report"
}

// A parse error says where the filter breaks and what was expected there.
// It names only the kind of what was found, never the filter's text (its
// values are users' data); ParseError.Input keeps the text.
func ExampleParseError() {
	_, err := rsql.Parse("Owner=alice.anders@example.com")
	fmt.Println(err)
	// Output: rsql: at offset 5: expected operator, found '=' without a closing '='
}
