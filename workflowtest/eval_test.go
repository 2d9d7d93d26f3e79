package workflowtest

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
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

// TestCompileAppliesRsqlRules: a comparison that rsql.CheckComparison
// refuses (built, so that Parse has not refused it already) is refused by
// the fake with the same error.
func TestCompileAppliesRsqlRules(t *testing.T) {
	null, one := rsql.Value{Null: true}, rsql.Value{Text: "1"}
	for _, c := range []*rsql.Comparison{
		{Field: "A", Op: rsql.OpGt, Values: []rsql.Value{null}},
		{Field: "A", Op: rsql.OpBetween, Values: []rsql.Value{null, one}},
		{Field: "A", Op: rsql.OpNotILike, Values: []rsql.Value{null}},
		{Field: "A", Op: rsql.OpBetween, Values: []rsql.Value{one}},
		{Field: "A", Op: rsql.OpIn},
		{Field: "A", Op: rsql.OpEq, Values: []rsql.Value{one, one}},
		{Field: "A", Op: "=zz=", Values: []rsql.Value{one}},
	} {
		want := rsql.CheckComparison(c)
		require.Error(t, want)
		_, err := compile(&rsql.AndExpr{Operands: []rsql.Expr{c}})
		assert.Equal(t, want, err, "%+v", c)
	}
}

// TestFilterRulesAgreeWithRsql holds the fake's answers to the rsql
// package's verdicts, for every operator spelling and kind of value: a
// filter rsql accepts is 200, one that breaks a rule of
// rsql.CheckComparison is 422 (and a built comparison with the same
// values is refused by the same rule), a syntax error is 400.
func TestFilterRulesAgreeWithRsql(t *testing.T) {
	a := newAPI(t)
	seedTasks(a.srv, 3)
	type value struct {
		text string
		v    rsql.Value
	}
	null := rsql.Value{Null: true}
	kinds := []value{
		{"1", rsql.Value{Text: "1"}},
		{"2024-01-01T00:00:00.000Z", rsql.Value{Text: "2024-01-01T00:00:00.000Z"}},
		{"null", null}, {"NULL", null}, {"Null", null},
		{`"null"`, rsql.Value{Text: "null"}},
		{`""`, rsql.Value{}},
		{`"a b"`, rsql.Value{Text: "a b"}},
	}
	verdict := func(err error) int {
		var rule *rsql.RuleError
		switch {
		case err == nil:
			return http.StatusOK
		case errors.As(err, &rule):
			return http.StatusUnprocessableEntity
		}
		return http.StatusBadRequest
	}
	check := func(op string, vals []value) {
		t.Helper()
		texts := make([]string, len(vals))
		built := make([]rsql.Value, len(vals))
		for i, v := range vals {
			texts[i], built[i] = v.text, v.v
		}
		filter := "Status" + op + "(" + strings.Join(texts, ",") + ")"
		if len(vals) == 1 && !strings.HasSuffix(op, "in=") && !strings.HasSuffix(op, "out=") {
			filter = "Status" + op + texts[0]
		}
		_, err := rsql.Parse(filter)
		want := verdict(err)
		res := a.get("/tasks/it?filter=" + url.QueryEscape(filter))
		require.Equal(t, want, res.status, "%s: rsql says %v; the fake: %s", filter, err, res.body)
		if want != http.StatusOK {
			assert.Contains(t, res.message(), err.Error(), filter)
		}
		if op == strings.ToLower(op) && want != http.StatusBadRequest {
			c := &rsql.Comparison{Field: "Status", Op: rsql.Operator(op), Values: built}
			assert.Equal(t, want, verdict(c.Validate()), "built %s: %v", filter, c.Validate())
		}
	}
	single := []string{"==", "!=", "=gt=", "=ge=", "=lt=", "=le=", "=lk=", "!lk=", "=lki=", "!lki=", "=GT=", "!LKI="}
	multi := []string{"=bt=", "=nbt=", "!bt=", "=in=", "=out=", "!in=", "=Bt=", "=IN="}
	for _, op := range single {
		for _, k := range kinds {
			check(op, []value{k})
		}
	}
	for _, op := range multi {
		for _, k1 := range kinds {
			check(op, []value{k1})
			for _, k2 := range kinds {
				check(op, []value{k1, k2})
			}
		}
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
		assert.Equal(t, listKey("l", ea), listKey("l", eb), "%s vs %s", a, b)
	}
	same("a==1;b==2", " a == 1 ; b==2")
	same("a=out=1:2", "a!in=1:2")
	same(`a=="x y"`, "a==x y")
	ea, _ := rsql.Parse("a==1;b==2")
	eb, _ := rsql.Parse("a==1,b==2")
	assert.NotEqual(t, listKey("l", ea), listKey("l", eb))
	ea, _ = rsql.Parse(`a=="null"`)
	eb, _ = rsql.Parse(`a==null`)
	assert.NotEqual(t, listKey("l", ea), listKey("l", eb))
}

func TestEqualityComparesTextExactly(t *testing.T) {
	cases := []struct {
		filter, value string
		want          bool
	}{
		{`n==7`, "007", false},
		{`n==7`, "7", true},
		{`n==1`, "1.0", false},
		{`n!=7`, "007", true},
		{`n=in=(7,8)`, "07", false},
		{`n=out=(7,8)`, "07", true},
		{`n=gt=7`, "10", true},  // ordering: numeric when both are numbers
		{`n=ge=7`, "007", true}, // 7 >= 7 numerically
		{`n=lt=b`, "a", true},   // strings otherwise
	}
	for _, tc := range cases {
		e, err := rsql.Parse(tc.filter)
		require.NoError(t, err)
		m, err := compile(e)
		require.NoError(t, err, tc.filter)
		assert.Equal(t, tc.want, m(map[string]string{"n": tc.value}), "%s on %q", tc.filter, tc.value)
	}
}
