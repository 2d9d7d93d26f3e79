package workflowtest

import (
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"net/url"
	"runtime"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/internal/testperf"
	"github.com/seed-a15e58aa/workflow-go/rsql"
)

// A record's compact fields give back what was stored, absent and empty
// kept apart, and encode as the map would.
func TestFieldSet(t *testing.T) {
	d := &definition{}
	for _, f := range []workflow.Record{
		{},
		{"id": "1"},
		{"id": "2", "Title": "a <b> & \"c\"\n", "Empty": "", "Ünïcode": "é\u2028"},
		wideRecord(7),
	} {
		fs := d.newFieldSet(f)
		assert.Equal(t, len(f), fs.len())
		if len(f) == 0 {
			assert.Equal(t, workflow.Record{}, fs.record())
		} else {
			assert.Equal(t, f, fs.record())
		}
		for k, v := range f {
			got, ok := fs.get(k)
			assert.True(t, ok, k)
			assert.Equal(t, v, got, k)
		}
		_, ok := fs.get("absent")
		assert.False(t, ok)
		b, err := json.Marshal(fs)
		require.NoError(t, err)
		var back map[string]string
		require.NoError(t, json.Unmarshal(b, &back))
		if len(f) > 0 {
			assert.Equal(t, map[string]string(f), back)
		}
	}
	a, b := d.newFieldSet(wideRecord(1)), d.newFieldSet(wideRecord(2))
	assert.Same(t, a.names, b.names, "records of one shape share their names")
}

// The filter's index gives the page, total and paging a scan of the
// definition gives, whatever the filter, cursor and direction, as records
// are added and changed.
func TestSelectRecordsMatchesAScan(t *testing.T) {
	srv := NewServer()
	defer srv.Close()
	rng := rand.New(rand.NewPCG(1, 2))
	filters := []string{"Status==Open", "Priority=ge=4", "Status==Open,Owner==owner-3", "Status==Nope", "Amount=lt=50"}
	st := srv.st
	d := st.define(defKey{workflow.Tasks, "t"})
	add := func(n int) {
		for range n {
			_, err := st.insert(d, wideRecord(rng.IntN(100)), "")
			require.NoError(t, err)
		}
	}
	add(150)
	for round := range 60 {
		switch round % 4 {
		case 1:
			add(rng.IntN(20))
		case 2:
			r := d.records[rng.IntN(len(d.records))]
			f := r.fields.record()
			f["Status"] = []string{"Open", "Done"}[rng.IntN(2)]
			r.fields = d.newFieldSet(f)
			d.changed()
		}
		text := filters[rng.IntN(len(filters))]
		e, err := rsql.Parse(text)
		require.NoError(t, err)
		m, err := compile(e)
		require.NoError(t, err)
		p := &paging{n: 1 + rng.IntN(30), backward: rng.IntN(2) == 0, key: listKey("t", e), match: m}
		if rng.IntN(3) > 0 {
			p.cursor, p.hasCursor = d.records[rng.IntN(len(d.records))].seq+uint64(rng.IntN(2)), true
		}
		want := selectPage(d.records, recordSeq, func(r *record) map[string]string { return r.fields.record() }, p)
		got := d.selectRecords(p)
		name := text + " round " + strconv.Itoa(round)
		assert.Equal(t, want.total, got.total, name)
		assert.Equal(t, want.hasPrev, got.hasPrev, name)
		assert.Equal(t, want.hasNext, got.hasNext, name)
		assert.Equal(t, len(want.items), len(got.items), name)
		for i := range min(len(want.items), len(got.items)) {
			assert.Same(t, want.items[i], got.items[i], name)
		}
	}
}

// SeedGenerated stores records of twelve fields, numbered on from the
// definition's records, that the API lists and filters like any other.
func TestSeedGenerated(t *testing.T) {
	a := newAPI(t)
	a.srv.Seed(workflow.Tasks, "big", workflow.Record{"Title": "first"})
	a.srv.SeedGenerated(workflow.Tasks, "big", 1000)
	a.srv.SeedGenerated(workflow.Tasks, "big", 1000)
	recs := a.srv.Records(workflow.Tasks, "big")
	require.Len(t, recs, 2001)
	assert.Equal(t, workflow.Record{
		"id": "2", "Title": "Record 2", "Status": "Waiting", "Priority": "3", "Owner": "owner-2@example.com",
		"Team": "support", "Due Date": "2026-01-01T02:00:00.000Z", "Amount": "2.12", "Region": "apac",
		"Source": "generated", "Category": "access", "Ref": "REF-00000002",
	}, recs[1])
	assert.Equal(t, "Record 2001", recs[2000]["Title"], "numbered on")
	assert.Equal(t, "2001", recs[2000]["id"])
	for _, r := range recs[1:] {
		assert.Len(t, r, len(GeneratedFields)+1)
	}

	l := a.list("/tasks/big", url.Values{"filter": {"Status==Open;Priority==1"}, "first": {"1000"}})
	assert.Equal(t, 100, l.Total, "k%4==0 and k%5==0: every 20th of 2000")
	for _, it := range l.Items {
		assert.Equal(t, "Open", it.Data["Status"])
	}
	res := a.do(http.MethodPut, "/tasks/big/2", map[string]string{"Status": "Open", "Priority": "1"})
	require.Equal(t, http.StatusOK, res.status)
	assert.Equal(t, 101, a.list("/tasks/big", url.Values{"filter": {"Status==Open;Priority==1"}}).Total, "a change is seen by the filter")
}

// A walk of a filtered record list tests each record once, not once a
// page: its cost is the pages' records, not pages times the definition.
func TestFilteredWalkTestsEachRecordOnce(t *testing.T) {
	srv := NewServer()
	defer srv.Close()
	srv.SeedGenerated(workflow.Tasks, "big", 10_000)
	d := srv.st.defs[defKey{workflow.Tasks, "big"}]
	e, err := rsql.Parse("Status==Open")
	require.NoError(t, err)
	m, err := compile(e)
	require.NoError(t, err)
	tested := 0
	p := &paging{n: 100, key: listKey("big", e), match: func(f map[string]string) bool { tested++; return m(f) }}
	got := 0
	for {
		res := d.selectRecords(p)
		got += len(res.items)
		assert.Equal(t, 2500, res.total)
		if !res.hasNext {
			break
		}
		p.cursor, p.hasCursor = res.items[len(res.items)-1].seq, true
	}
	assert.Equal(t, 2500, got)
	assert.Equal(t, 10_000, tested, "every record once over the 25 pages")

	srv.SeedGenerated(workflow.Tasks, "big", 100)
	res := d.selectRecords(p)
	assert.Equal(t, 2525, res.total, "records added since are counted")
	assert.Equal(t, 10_100, tested, "and only they are tested")
}

// TestFakeHeapPerRecord holds the fake to at most half the heap per
// record it used to take (922 bytes for twelve short fields), the bound
// that lets it hold millions. Process-wide heap figures move with what
// else runs: a performance check.
func TestFakeHeapPerRecord(t *testing.T) {
	testperf.Require(t)
	const n = 100_000
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	srv := NewServer()
	defer srv.Close()
	for i := 0; i < n; i += 10_000 {
		recs := make([]workflow.Record, 10_000)
		for j := range recs {
			recs[j] = wideRecord(i + j)
		}
		srv.Seed(workflow.Tasks, "scale", recs...)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	perRecord := float64(after.HeapAlloc-before.HeapAlloc) / n
	t.Logf("%.0f bytes of heap a record", perRecord)
	assert.Less(t, perRecord, 461.0)
	runtime.KeepAlive(srv)
}
