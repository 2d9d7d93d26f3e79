package provider

import (
	"context"
	"iter"
	"slices"
	"sync"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
)

// Lists read once a run. The API reads agents and skills only through
// their app's list, and finds an object by its natural key only by
// walking a list (createOnce). Walked for each resource, a plan of n
// agents would read the list n times, and its members n² times. So each
// list is walked once a run (a CLI command is one provider process) and
// kept: the reads of a plan share it, a create adds what it made, and an
// update or a create whose outcome is unknown forgets it, so that the
// next read walks again.

// runList is one family's lists, by key (an app's alias, or "" for a
// workspace-wide list).
type runList[T any] struct {
	mu    sync.Mutex
	walks map[string]*walked[T]
}

// walked is one list, walked at most once.
type walked[T any] struct {
	once  sync.Once
	mu    sync.Mutex // guards items, err and done
	items []T
	err   error
	done  bool // the walk has ended: items are the list's
}

// items returns the list key holds, walking it with all the first time.
// A failed walk is not kept: the next call walks again.
func (l *runList[T]) items(key string, all func() iter.Seq2[T, error]) ([]T, error) {
	l.mu.Lock()
	if l.walks == nil {
		l.walks = map[string]*walked[T]{}
	}
	w := l.walks[key]
	if w == nil {
		w = &walked[T]{}
		l.walks[key] = w
	}
	l.mu.Unlock()
	w.once.Do(func() {
		var items []T
		var err error
		for item, e := range all() {
			if e != nil {
				items, err = nil, e
				break
			}
			items = append(items, item)
		}
		w.mu.Lock()
		w.items, w.err, w.done = items, err, true
		w.mu.Unlock()
	})
	w.mu.Lock()
	items, err := slices.Clone(w.items), w.err
	w.mu.Unlock()
	if err != nil {
		l.forgetWalk(key, w)
		return nil, err
	}
	return items, nil
}

// forgetWalk drops the list key when it is still the walk w.
func (l *runList[T]) forgetWalk(key string, w *walked[T]) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.walks[key] == w {
		delete(l.walks, key)
	}
}

// each is items as a walk's sequence, for only and listed.
func (l *runList[T]) each(key string, all func() iter.Seq2[T, error]) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		items, err := l.items(key, all)
		if err != nil {
			var zero T
			yield(zero, err)
			return
		}
		for _, t := range items {
			if !yield(t, nil) {
				return
			}
		}
	}
}

// add adds t, just made, to the list key, when its walk has ended; a
// walk still going may or may not see t, so the list is forgotten then,
// for the next read to walk again.
func (l *runList[T]) add(key string, t T) {
	l.mu.Lock()
	w := l.walks[key]
	l.mu.Unlock()
	if w == nil {
		return
	}
	w.mu.Lock()
	done := w.done && w.err == nil
	if done {
		w.items = append(w.items, t)
	}
	w.mu.Unlock()
	if !done {
		l.forgetWalk(key, w)
	}
}

// forget drops the list key: the next read walks it again.
func (l *runList[T]) forget(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.walks, key)
}

// runLists are the lists of one run, read once: the provider's, shared by
// its resources.
type runLists struct {
	agents runList[admin.Agent]
	skills runList[admin.Skill]
	views  runList[admin.View]
	tables runList[admin.Table]
	groups runList[workflow.Group]
}

// agents returns the walk of app's agents, read once a run.
func (b *base) agents(ctx context.Context, app string) iter.Seq2[admin.Agent, error] {
	return b.lists.agents.each(app, func() iter.Seq2[admin.Agent, error] { return b.ws.Agents.All(ctx, app, nil) })
}

// skills returns the walk of app's skills, read once a run.
func (b *base) skills(ctx context.Context, app string) iter.Seq2[admin.Skill, error] {
	return b.lists.skills.each(app, func() iter.Seq2[admin.Skill, error] { return b.ws.Skills.All(ctx, app, nil) })
}

// views returns the walk of app's views, read once a run.
func (b *base) views(ctx context.Context, app string) iter.Seq2[admin.View, error] {
	return b.lists.views.each(app, func() iter.Seq2[admin.View, error] { return b.ws.Views.All(ctx, app, nil) })
}

// tables returns the walk of the workspace's tables, read once a run.
func (b *base) tables(ctx context.Context) iter.Seq2[admin.Table, error] {
	return b.lists.tables.each("", func() iter.Seq2[admin.Table, error] { return b.ws.Tables.All(ctx, nil) })
}

// groups returns the walk of the workspace's groups, read once a run.
func (b *base) groups(ctx context.Context) iter.Seq2[workflow.Group, error] {
	return b.lists.groups.each("", func() iter.Seq2[workflow.Group, error] { return b.c.Groups.All(ctx, nil) })
}

// fresh returns find, a look-up through a list read once a run, such
// that every call after the first forgets the list first (forget): the
// look-up after a create whose outcome is unknown must see the service
// as it is now (createOnce).
func fresh[T any](forget func(), find func() (*T, error)) func() (*T, error) {
	calls := 0
	return func() (*T, error) {
		if calls++; calls > 1 {
			forget()
		}
		return find()
	}
}
