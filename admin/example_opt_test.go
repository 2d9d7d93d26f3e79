package admin_test

import (
	"encoding/json"
	"fmt"

	"github.com/seed-a15e58aa/workflow-go/admin"
)

// A read model tells a member sent as false, 0 or "" from one sent as
// null and from one not sent, and writes back exactly what it read.
func ExampleOpt() {
	var v admin.View
	if err := json.Unmarshal([]byte(`{"name":"","rows":0,"density":null}`), &v); err != nil {
		fmt.Println(err)
		return
	}
	rows, ok := v.Rows.Get()
	fmt.Println("rows:", rows, ok)
	fmt.Println("density null:", v.Density.IsNull())
	_, ok = v.AllowRecordCreation.Get()
	fmt.Println("allowRecordCreation sent:", ok, v.AllowRecordCreation.Present())

	v.AllowRecordCreation = admin.Some(false)
	out, _ := json.Marshal(v)
	fmt.Println(string(out))

	_, err := v.Request()
	fmt.Println(err)
	// Output:
	// rows: 0 true
	// density null: true
	// allowRecordCreation sent: false false
	// {"name":"","allowRecordCreation":false,"density":null,"rows":0}
	// workflow: invalid View.Density: was read as null, which a write body cannot hold: set a value or leave the member out
}
