package admin_test

import (
	"context"
	"fmt"

	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

func ExampleElementsService_Create() {
	srv := workflowtest.NewServer()
	defer srv.Close()
	ws := admin.New(srv.Client())
	ctx := context.Background()

	// A native element with two fields, filed under a category.
	el, err := ws.Elements.Create(ctx, admin.NewElement{
		Name:       "Spare Parts",
		Handle:     new("SPR"),
		CategoryID: "550e8400-e29b-41d4-a716-446655440001",
		Fields: []admin.ElementField{
			{Name: "Part number", Type: admin.FieldText},
			{Name: "Weight", Type: admin.FieldDecimal},
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(el.Namespace, el.Handle, el.SourceType)

	// Change its description; what the update leaves out is kept.
	el, err = ws.Elements.Update(ctx, el.Namespace.Value(), admin.ElementUpdate{Description: new("What the stores keep")})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(el.Name.Value()+":", el.Description)
	// Output:
	// spareparts SPR ELEMENTUM
	// Spare Parts: What the stores keep
}
