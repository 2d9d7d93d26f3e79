package workflowtest

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/seed-a15e58aa/workflow-go/rsql"
)

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
