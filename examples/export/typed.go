package main

import (
	"context"
	"iter"
	"time"

	workflow "github.com/seed-a15e58aa/workflow-go"
)

// Task is a task record of the demo data, typed. Fields the struct does not
// name are kept in Other, so the export loses nothing.
type Task struct {
	ID       string          `workflow:"id"`
	Title    string          `workflow:"Title"`
	Status   string          `workflow:"Status"`
	Priority int             `workflow:"Priority,omitempty"`
	Due      time.Time       `workflow:"Due Date,omitempty"`
	Other    workflow.Record `workflow:",extra"`
}

// typedPages reads the tasks with workflow.AllItemsAs and hands them on in
// pages of opts.First records, each written back as the struct's fields,
// with its cursor, so the export loop saves its position as usual. The
// total of the list is not known this way (the progress bar is left out).
func typedPages(ctx context.Context, c *workflow.Client, alias string, opts *workflow.ListOptions) iter.Seq2[*workflow.RecordPage, error] {
	return func(yield func(*workflow.RecordPage, error) bool) {
		page := &workflow.RecordPage{}
		for it, err := range workflow.AllItemsAs[Task](ctx, c.Records, workflow.Tasks, alias, opts) {
			if err != nil {
				// Records before the bad one are written first, so that
				// -resume starts right after them.
				if len(page.Items) > 0 && !yield(page, nil) {
					return
				}
				yield(nil, err)
				return
			}
			rec, err := workflow.Encode(it.Value)
			if err != nil {
				yield(nil, err)
				return
			}
			page.Items = append(page.Items, workflow.RecordItem{Data: rec, Cursor: it.Cursor})
			if len(page.Items) == opts.First {
				if !yield(page, nil) {
					return
				}
				page = &workflow.RecordPage{}
			}
		}
		if len(page.Items) > 0 {
			yield(page, nil)
		}
	}
}
