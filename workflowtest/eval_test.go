package workflowtest

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-a15e58aa/workflow-go/rsql"
)

func TestFilterEvaluation(t *testing.T) {
	rec := map[string]string{
		"Title":    "Fix the Printer",
		"Priority": "10",
		"Score":    "2.5",
		"Due Date": "2024-03-01T09:30:00.000Z",
		"Code":     "b",
		"Empty":    "",
		"Version":  "1e3",
	}
	tests := []struct {
		filter string
		want   bool
	}{
		// Equality: the text, exactly (no numeric equality).
		{"Title==Fix the Printer", true},
		{"Title==fix the printer", false},
		{"Priority==10", true},
		{"Priority==10.0", false},
		{"Priority==1e1", false},
		{"Version==1000", false},
		{"Priority!=10", false},
		{"Priority!=11", true},
		// Numbers: 10 > 9 (as strings "10" < "9").
		{"Priority=gt=9", true},
		{"Priority=ge=10", true},
		{"Priority=gt=10", false},
		{"Priority=lt=9", false},
		{"Priority=le=10", true},
		{"Score=lt=10", true},
		{"Score=gt=-1", true},
		// A non-number on one side: strings.
		{"Code=gt=a", true},
		{"Code=lt=a", false},
		{"Priority=gt=abc", false},
		// Times.
		{"Due Date=gt=2024-03-01T09:29:59.999Z", true},
		{"Due Date=lt=2024-03-01T09:30:00.001Z", true},
		{"Due Date==2024-03-01T09:30:00.000Z", true},
		{"Due Date=lt=2024-02-29T23:59:59.000Z", false},
		// Between: inclusive at both ends.
		{"Priority=bt=10:20", true},
		{"Priority=bt=1:10", true},
		{"Priority=bt=11:20", false},
		{"Priority=nbt=11:20", true},
		{"Priority!bt=1:10", false},
		{"Due Date=bt=(2024-03-01T00:00:00.000Z,2024-03-02T00:00:00.000Z)", true},
		{"Code=bt=a:c", true},
		// Lists.
		{"Code=in=a:b:c", true},
		{"Code=in=x:y", false},
		{"Code=out=x:y", true},
		{"Code!in=b", false},
		{"Priority=in=9:10.0", false},
		// Contains.
		{"Title=lk=Printer", true},
		{"Title=lk=printer", false},
		{"Title=lki=printer", true},
		{"Title=lki=PRINT", true},
		{"Title!lk=Printer", false},
		{"Title!lki=PRINTER", false},
		{"Title!lki=scanner", true},
		{"Title=lk=*", false},
		// null: absent or empty.
		{"Missing==null", true},
		{"Empty==null", true},
		{"Title==null", false},
		{"Title!=null", true},
		{"Empty!=null", false},
		{"Missing=in=null:x", true},
		{"Missing=out=x", true},
		{`Empty==""`, true},
		{`Missing==""`, false},
		// Absent and empty fields never match positive comparisons...
		{"Missing==x", false},
		{"Missing=gt=0", false},
		{"Missing=lk=a", false},
		{"Empty=lt=zzz", false},
		{"Missing=bt=0:9", false},
		// ...and always match their negations.
		{"Missing!=x", true},
		{"Missing!lk=a", true},
		{"Missing=nbt=0:9", true},
		// AND binds tighter than OR.
		{"Code==x;Code==b,Priority==10", true},
		{"Code==b;Priority==1,Code==x", false},
		{"Code==b,Priority==1;Code==x", true},
		{"(Code==b,Priority==1);Code==x", false},
		// Field names with spaces, quoted values.
		{`Title=="Fix the Printer";Code=='b'`, true},
	}
	for _, tc := range tests {
		t.Run(tc.filter, func(t *testing.T) {
			e, err := rsql.Parse(tc.filter)
			require.NoError(t, err)
			m, err := compile(e)
			require.NoError(t, err)
			assert.Equal(t, tc.want, m(rec))
		})
	}
}

func TestFilterSemanticErrors(t *testing.T) {
	for _, f := range []string{"A=gt=null", "A=bt=null:1", "A=lk=null", "A=lki=null", "A!lk=null"} {
		e, err := rsql.Parse(f)
		require.NoError(t, err, f)
		_, err = compile(e)
		assert.Error(t, err, f)
	}
}

func TestParseNumber(t *testing.T) {
	for s, want := range map[string]bool{
		"1": true, "-1": true, "+2.5": true, ".5": true, "5.": true, "1e3": true, "1E-3": true,
		"": false, "-": false, ".": false, "e3": false, "1e": false, "0x10": false, "Inf": false,
		"NaN": false, "1_000": false, "1.2.3": false, " 1": false,
	} {
		_, ok := parseNumber(s)
		assert.Equal(t, want, ok, "%q", s)
	}
}

func TestCanonicalFilter(t *testing.T) {
	same := func(a, b string) {
		t.Helper()
		ea, err := rsql.Parse(a)
		require.NoError(t, err)
		eb, err := rsql.Parse(b)
		require.NoError(t, err)
		assert.Equal(t, canonical(ea), canonical(eb), "%s vs %s", a, b)
	}
	same("a==1;b==2", " a == 1 ; b==2")
	same("a=out=1:2", "a!in=1:2")
	same(`a=="x y"`, "a==x y")
	ea, _ := rsql.Parse("a==1;b==2")
	eb, _ := rsql.Parse("a==1,b==2")
	assert.NotEqual(t, canonical(ea), canonical(eb))
	ea, _ = rsql.Parse(`a=="null"`)
	eb, _ = rsql.Parse(`a==null`)
	assert.NotEqual(t, canonical(ea), canonical(eb))
}
