package main

// This file is the one that knows package admin: it reads a workspace's
// automations and views into objects (their write form as parsed JSON),
// and writes objects back. The rest of the command works on objects only.

import (
	"context"
	"fmt"

	json "github.com/go-json-experiment/json"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
)

// workspace is the configuration of one app in one workspace.
type workspace struct {
	ws  *admin.Workspace
	rt  workflow.RecordType // the record type of the app's definition, for its automations
	app string
}

func newWorkspace(c *workflow.Client, rt workflow.RecordType, app string) *workspace {
	return &workspace{ws: admin.New(c), rt: rt, app: app}
}

// automations reads the app's automations: each is its own write form,
// less its "id", which the object keeps aside.
func (w *workspace) automations(ctx context.Context) ([]*object, error) {
	list, err := w.ws.Automations.List(ctx, w.rt, w.app)
	if err != nil {
		return nil, err
	}
	out := make([]*object, 0, len(list))
	for _, a := range list {
		o, err := newObject(automationKind, a.Without("id"))
		if err != nil {
			return nil, fmt.Errorf("automation %s: %w", a.ID(), err)
		}
		o.id = a.ID()
		out = append(out, o)
	}
	return out, nil
}

// views reads the app's views: each is the body of the view's create,
// {"handle", "view"}, without its sharing (whose users and groups are the
// workspace's own).
func (w *workspace) views(ctx context.Context) ([]*object, error) {
	var out []*object
	for v, err := range w.ws.Views.All(ctx, w.app, nil) {
		if err != nil {
			return nil, err
		}
		r, err := v.Request()
		if err != nil {
			return nil, err
		}
		b, err := json.Marshal(struct {
			Handle string          `json:"handle"`
			View   admin.ViewInput `json:"view"`
		}{v.ClientHandle.Value(), r.View})
		if err != nil {
			return nil, fmt.Errorf("view %s: %w", v.ClientHandle, err)
		}
		o, err := newObject(viewKind, b)
		if err != nil {
			return nil, fmt.Errorf("view %s: %w", v.ClientHandle, err)
		}
		o.id = v.ID.Value()
		out = append(out, o)
	}
	return out, nil
}

// agentIDs returns the ids of the app's agents.
func (w *workspace) agentIDs(ctx context.Context) (map[string]bool, error) {
	ids := map[string]bool{}
	for a, err := range w.ws.Agents.All(ctx, w.app, nil) {
		if err != nil {
			return nil, err
		}
		ids[a.ID.Value()] = true
	}
	return ids, nil
}

// create creates o.
func (w *workspace) create(ctx context.Context, o *object) error {
	if o.kind == automationKind {
		_, err := w.ws.Automations.Create(ctx, w.rt, w.app, admin.Automation(o.form))
		return err
	}
	r, err := viewRequest(o)
	if err == nil {
		_, err = w.ws.Views.Create(ctx, w.app, o.key, r)
	}
	return err
}

// update gives the object of the same key, whose id in this workspace is
// id (automations), the state of o.
func (w *workspace) update(ctx context.Context, o *object, id string) error {
	if o.kind == automationKind {
		_, err := w.ws.Automations.Update(ctx, w.rt, w.app, id, admin.Automation(o.form))
		return err
	}
	r, err := viewRequest(o)
	if err == nil {
		_, err = w.ws.Views.Update(ctx, w.app, o.key, r)
	}
	return err
}

// canDelete reports whether objects of kind k can be deleted.
func canDelete(k kind) bool { return k == automationKind }

// delete deletes o, an object of this workspace, as canDelete allows.
func (w *workspace) delete(ctx context.Context, o *object) error {
	if !canDelete(o.kind) {
		return fmt.Errorf("the API has no delete for %ss", o.kind)
	}
	return w.ws.Automations.Delete(ctx, w.rt, w.app, o.id)
}

// viewRequest is o as the body of a view's update: o less its handle (the
// handle is the create's parameter, and the update's path).
func viewRequest(o *object) (admin.ViewRequest, error) {
	var r admin.ViewRequest
	if err := json.Unmarshal(o.form, &r); err != nil {
		return r, fmt.Errorf("not a view's write form: %w", err)
	}
	delete(r.Extra, "handle")
	return r, nil
}
