package workflow

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEmailRulesAreOne: Users.Create and AddWatchers check an e-mail
// address by the same rules, with the same words, before sending.
func TestEmailRulesAreOne(t *testing.T) {
	c := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("nothing may be sent: %s %s", r.Method, r.URL)
	}))
	for _, tc := range []struct{ email, rule string }{
		{"", "must not be empty"},
		{"not an address", "must be an e-mail address such as name@example.com"},
		{"Ann <ann@example.com>", "must be a bare e-mail address such as name@example.com, without a display name, angle brackets or spaces"},
		{"<ann@example.com>", "must be a bare e-mail address such as name@example.com, without a display name, angle brackets or spaces"},
	} {
		t.Run(tc.email, func(t *testing.T) {
			_, err := c.Users.Create(t.Context(), NewUser{Email: tc.email, FirstName: "A", LastName: "B"})
			var ve *ValidationError
			require.ErrorAs(t, err, &ve)
			assert.Equal(t, "NewUser.Email", ve.Field)
			assert.Equal(t, tc.rule, ve.Rule)

			err = c.Records.Watchers.Add(t.Context(), Tasks, "it", "1", []string{"ok@example.com", tc.email})
			require.ErrorAs(t, err, &ve)
			assert.Equal(t, "emails[1]", ve.Field)
			assert.Equal(t, tc.rule, ve.Rule)
		})
	}
}
