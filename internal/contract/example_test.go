package contract_test

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/seed-a15e58aa/workflow-go/internal/contract"
)

// Validate checks one exchange: here a watcher request whose second
// address is not an e-mail address, answered with a status the operation
// does not publish.
func ExampleValidate() {
	req, _ := http.NewRequest(http.MethodPost, "https://api.example.test/v1/apps/assets/REC-1/watchers",
		strings.NewReader(`{"users":["jane@example.com","550e8400-e29b-41d4-a716-446655440000"]}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer not-shown")
	resp := &http.Response{StatusCode: http.StatusNoContent, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(""))}

	err := contract.Validate(req, resp)
	var v *contract.Violation
	if errors.As(err, &v) {
		for _, m := range v.Messages() {
			fmt.Println(m)
		}
	}
	// Output:
	// contract: createRecordWatchers POST /v1/apps/assets/REC-1/watchers: request body: doesn't match schema #/components/schemas/WatcherListInput: at "/users/1": string doesn't match the format "email" (must be an e-mail address)
	// contract: createRecordWatchers POST /v1/apps/assets/REC-1/watchers: reply status 204 is not published for this operation (published: 201, 400, 401, 403, 404, 422, 429, 500)
}
