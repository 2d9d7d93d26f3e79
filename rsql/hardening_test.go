package rsql

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type stamp struct{ time.Time }

type Stamped struct {
	*time.Time
}

func TestTimesPrintInTheAPIsForm(t *testing.T) {
	loc := time.FixedZone("X", 5*3600+30*60)
	tm := time.Date(2024, 3, 5, 15, 41, 12, 345678901, loc)
	want := "2024-03-05T10:11:12.345Z"
	for name, v := range map[string]any{
		"time.Time":            tm,
		"*time.Time":           &tm,
		"embedding":            stamp{tm},
		"*embedding":           &stamp{tm},
		"embedding *time.Time": Stamped{&tm},
	} {
		e := Field("due").Gt(v)
		require.NoError(t, e.Validate(), name)
		s := e.String()
		assert.Equal(t, "due=gt="+want, s, name)
	}
}

func TestNullInAnyCaseIsQuoted(t *testing.T) {
	for _, v := range []string{"null", "NULL", "Null", "nUlL"} {
		s := Field("f").Eq(v).String()
		assert.Equal(t, `f=="`+v+`"`, s)
	}
	s := Field("f").Eq("nullable").String()
	assert.Equal(t, `f==nullable`, s)
}
