package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/admin"
	"github.com/seed-a15e58aa/workflow-go/internal/exampletest"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

func TestMain(m *testing.M) {
	exampletest.RunMain(main) // for TestHelp
	goleak.VerifyTestMain(m)
}

// TestHelp checks -h exits with status 0 and a bad flag does not.
func TestHelp(t *testing.T) { exampletest.CheckHelp(t, "addr") }

// TestServeTokenAndList runs the server on a random port, asks for a token
// with the printed credentials and lists the printed tasks list with a
// filter, then stops it as SIGINT would.
func TestServeTokenAndList(t *testing.T) {
	ctx := t.Context()
	banner, stop := serveFake(t, "-addr", "127.0.0.1:0")
	printed := map[string]string{}
	var lists, curl []string
	for _, line := range banner {
		if strings.HasPrefix(line, "  /v1/") {
			lists = append(lists, strings.TrimSpace(line))
		}
		if strings.HasPrefix(line, "  TOKEN=") || strings.HasPrefix(line, "  curl ") {
			curl = append(curl, strings.TrimSpace(line))
		}
		if k, v, ok := strings.Cut(line, ":"); ok && !strings.HasPrefix(line, " ") {
			printed[k] = strings.TrimSpace(v)
		}
	}
	base := printed["base URL"]
	auth, _, _ := strings.Cut(printed["auth URL"], " ")
	require.True(t, strings.HasPrefix(base, "http://127.0.0.1:"), "%q", base)
	require.True(t, strings.HasSuffix(base, "/v1"), "%q", base)
	assert.Equal(t, "demo-client", printed["client id"])
	assert.Equal(t, "demo-secret", printed["client secret"])
	assert.Equal(t, []string{"/v1/tasks/it-requests", "/v1/apps/crm-accounts", "/v1/elements/parts", "/v1/transactions/invoices"}, lists)
	assert.Equal(t, `/v1/apps/crm-accounts/automations: "Welcome new accounts", "Flag gold accounts", "Archive closed accounts"`, printed["automations"])
	assert.Equal(t, "/v1/apps/crm-accounts/views/{handle}: all-accounts (List), gold-accounts (List), by-tier (Kanban)", printed["views"])

	require.Len(t, curl, 2, "the banner's curl example: a token, then a list")
	assert.Equal(t, "TOKEN=$(curl -s -u 'demo-client:demo-secret' -d grant_type=client_credentials '"+auth+
		`/oauth/token' | sed 's/.*"access_token":"\([^"]*\)".*/\1/')`, curl[0])
	assert.Equal(t, `curl -s -H "Authorization: Bearer $TOKEN" '`+base+`/tasks/it-requests?first=5'`, curl[1])
	t.Run("the curl example runs as printed", func(t *testing.T) {
		for _, tool := range []string{"sh", "curl", "sed"} {
			if _, err := exec.LookPath(tool); err != nil {
				t.Skip("no", tool)
			}
		}
		out, err := exec.CommandContext(ctx, "sh", "-c", strings.Join(curl, "\n")).Output()
		require.NoError(t, err)
		var page struct {
			Items []json.RawMessage `json:"items"`
		}
		require.NoError(t, json.Unmarshal(out, &page), "%s", out)
		assert.Len(t, page.Items, 5)
	})

	hc := &http.Client{Timeout: time.Minute, Transport: &http.Transport{}} // a liveness guard
	defer hc.CloseIdleConnections()

	req, err := http.NewRequestWithContext(ctx, http.MethodPost, auth+"/oauth/token", strings.NewReader("grant_type=client_credentials"))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(printed["client id"], printed["client secret"])
	resp, err := hc.Do(req)
	require.NoError(t, err)
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&tok))
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)

	get := func(u string, into any) {
		t.Helper()
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
		resp, err := hc.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode)
		require.NoError(t, json.NewDecoder(resp.Body).Decode(into))
	}

	var page struct {
		Items []struct {
			Data map[string]string `json:"data"`
		} `json:"items"`
		Total int `json:"total"`
	}
	get(strings.TrimSuffix(base, "/v1")+lists[0]+"?"+url.Values{"filter": {"Status==Open;Priority=ge=4"}, "first": {"5"}}.Encode(), &page)
	assert.Len(t, page.Items, 5)
	assert.Greater(t, page.Total, 5)
	assert.Less(t, page.Total, 1000)
	for _, it := range page.Items {
		assert.Equal(t, "Open", it.Data["Status"])
	}

	// The demo data is the embedded fake's: the same users, the default
	// user included, and the groups, printed by name and id.
	embedded := workflowtest.NewServer()
	defer embedded.Close()
	demo := embedded.SeedDemo()
	var wantEmails, gotEmails, wantGroups []string
	for _, u := range embedded.Users() {
		wantEmails = append(wantEmails, u.Email)
	}
	var users struct {
		Items []struct {
			Email string `json:"email"`
		} `json:"items"`
	}
	get(base+"/users?first=100", &users)
	for _, u := range users.Items {
		gotEmails = append(gotEmails, u.Email)
	}
	assert.Equal(t, wantEmails, gotEmails)
	assert.Equal(t, workflowtest.DefaultUserEmail, printed["user"])
	for _, id := range demo.Groups {
		g, _ := embedded.Group(id)
		wantGroups = append(wantGroups, g.Name+" ("+id+")")
	}
	assert.Equal(t, strings.Join(wantGroups, ", "), printed["groups"])

	// The demo attachment's content, at the printed path.
	require.True(t, strings.HasPrefix(printed["file content"], "/v1/"), "%q", printed["file content"])
	req, err = http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(base, "/v1")+printed["file content"], nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	resp, err = hc.Do(req)
	require.NoError(t, err)
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "application/octet-stream", resp.Header.Get("Content-Type"))
	assert.Contains(t, resp.Header.Get("Content-Disposition"), "notes.txt")
	assert.NotEmpty(t, body)
	hc.CloseIdleConnections()
	stop()
}

// serveFake runs the command with args until stop is called, and returns
// the lines it printed up to "serving". stop checks that it stopped
// without an error.
func serveFake(t *testing.T, args ...string) (banner []string, stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	t.Cleanup(cancel)
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := run(ctx, args, pw, io.Discard)
		pw.Close()
		done <- err
	}()
	sc := bufio.NewScanner(pr)
	for sc.Scan() {
		banner = append(banner, sc.Text())
		if strings.HasPrefix(sc.Text(), "serving") {
			break
		}
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	return banner, func() {
		t.Helper()
		cancel()
		select {
		case err := <-done:
			assert.NoError(t, err)
		case <-time.After(time.Minute): // a liveness guard, wide for a busy machine
			t.Fatal("run did not stop")
		}
	}
}

func TestBadFlags(t *testing.T) {
	assert.Error(t, run(t.Context(), []string{"-nope"}, io.Discard, io.Discard))
	assert.Error(t, run(t.Context(), []string{"extra"}, io.Discard, io.Discard))
	assert.Error(t, run(t.Context(), []string{"-client-secret", ""}, io.Discard, io.Discard))
	assert.Error(t, run(t.Context(), []string{"-addr", "256.0.0.1:1"}, io.Discard, io.Discard))
	assert.Error(t, run(t.Context(), []string{"-stored-content-limit", "-1"}, io.Discard, io.Discard))
	assert.ErrorContains(t, run(t.Context(), []string{"-replies", "generus"}, io.Discard, io.Discard), "documented or generous")
}

// TestReplies: -replies generous sends what the fake keeps beside the
// document's members (a table's description); the default does not.
func TestReplies(t *testing.T) {
	for _, tt := range []struct {
		args  []string
		holds bool
	}{{nil, false}, {[]string{"-replies", "documented"}, false}, {[]string{"-replies", "generous"}, true}} {
		t.Run(fmt.Sprint(tt.args), func(t *testing.T) {
			t.Setenv(workflowtest.RepliesEnv, "")
			base, auth := startFake(t, append([]string{"-empty"}, tt.args...)...)
			c, err := workflow.NewClient(workflow.WithCredentials(demoClientID, demoClientSecret), workflow.WithEndpoint(base, auth))
			require.NoError(t, err)
			t.Cleanup(c.CloseIdleConnections)
			table, err := admin.New(c).Tables.Create(t.Context(), admin.TableCreateRequest{Name: "T", Handle: "t",
				Source: "00000000-0000-4000-8000-0000000000a1", CategoryID: "00000000-0000-4000-8000-0000000000c1", Description: new("d"),
				Fields: []admin.TableFieldInput{{Calculation: &admin.TableCalculationField{Name: new("A"), Text: new("1")}}}})
			require.NoError(t, err)
			_, held := table.Extra["description"]
			assert.Equal(t, tt.holds, held)
		})
	}
}

// startFake runs the server with args on a random port until the test
// ends, and returns its base URL and auth URL as printed.
func startFake(t *testing.T, args ...string) (base, auth string) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := run(ctx, append([]string{"-addr", "127.0.0.1:0"}, args...), pw, io.Discard)
		pw.Close()
		done <- err
	}()
	t.Cleanup(func() {
		cancel()
		assert.NoError(t, <-done)
	})
	sc := bufio.NewScanner(pr)
	for sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), ":")
		switch k {
		case "base URL":
			base = strings.TrimSpace(v)
		case "auth URL":
			auth, _, _ = strings.Cut(strings.TrimSpace(v), " ")
		}
		if strings.HasPrefix(sc.Text(), "serving") {
			break
		}
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	require.NotEmpty(t, base)
	return base, auth
}

// TestUploadRoundTrip: started with no flags, the server gives back a
// 20 MB upload byte for byte (more than the 16 MiB it used to keep);
// with -stored-content-limit, the download of a larger file is refused
// with 501 naming the flag.
func TestUploadRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		size   int
		status int
	}{
		{nil, 20 << 20, http.StatusOK},
		{[]string{"-stored-content-limit", "1000"}, 2000, http.StatusNotImplemented},
	} {
		t.Run(strings.Join(append([]string{"flags"}, tc.args...), " "), func(t *testing.T) {
			base, auth := startFake(t, tc.args...)
			hc := &http.Client{Transport: &http.Transport{}}
			defer hc.CloseIdleConnections()
			c, err := workflow.NewClient(workflow.WithCredentials(demoClientID, demoClientSecret),
				workflow.WithEndpoint(base, auth), workflow.WithHTTPClient(hc))
			require.NoError(t, err)
			content := make([]byte, tc.size)
			for i := range content {
				content[i] = byte(i % 251)
			}
			att, err := c.Attachments.Upload(t.Context(), workflow.Tasks, workflowtest.DemoTasks, "1", "big.bin", bytes.NewReader(content), nil)
			require.NoError(t, err)
			dl, err := c.Attachments.Download(t.Context(), workflow.Tasks, workflowtest.DemoTasks, "1", att.ID)
			if tc.status != http.StatusOK {
				var apiErr *workflow.APIError
				require.ErrorAs(t, err, &apiErr)
				assert.Equal(t, tc.status, apiErr.StatusCode)
				assert.Contains(t, apiErr.Message, "-stored-content-limit")
				return
			}
			require.NoError(t, err)
			var got bytes.Buffer
			_, err = dl.SaveTo(&got, nil)
			require.NoError(t, err)
			assert.True(t, bytes.Equal(content, got.Bytes()), "the download gives back the upload")
		})
	}
}

// TestSeedFlag: -seed defines a definition and fills it with generated
// records that any client lists.
func TestSeedFlag(t *testing.T) {
	ctx := t.Context()
	banner, stop := serveFake(t, "-addr", "127.0.0.1:0", "-seed", "tasks/big-export=5000", "-seed", "apps/empty=0")
	printed := map[string][]string{}
	for _, line := range banner {
		if k, v, ok := strings.Cut(line, ":"); ok && !strings.HasPrefix(line, " ") {
			printed[k] = append(printed[k], strings.TrimSpace(v))
		} else if strings.HasPrefix(line, "  /v1/") {
			printed["lists"] = append(printed["lists"], strings.TrimSpace(line))
		}
	}
	require.Len(t, printed["seeded"], 2)
	assert.Regexp(t, `^5000 generated records in /v1/tasks/big-export in \S+$`, printed["seeded"][0])
	assert.Subset(t, printed["lists"], []string{"/v1/tasks/big-export", "/v1/apps/empty"})

	auth, _, _ := strings.Cut(printed["auth URL"][0], " ")
	c, err := workflow.NewClient(workflow.WithCredentials(demoClientID, demoClientSecret), workflow.WithEndpoint(printed["base URL"][0], auth))
	require.NoError(t, err)
	defer c.CloseIdleConnections()
	page, err := c.Records.List(ctx, workflow.Tasks, "big-export", &workflow.ListOptions{First: 3})
	require.NoError(t, err)
	assert.Equal(t, 5000, page.Total)
	assert.Equal(t, "Record 1", page.Items[0].Data["Title"])
	page, err = c.Records.List(ctx, workflow.Apps, "empty", nil)
	require.NoError(t, err)
	assert.Zero(t, page.Total)

	c.CloseIdleConnections()
	stop()
	for _, bad := range []string{"tasks", "tasks/x", "tasks/x=-1", "tasks/x=many", "notes/x=1", "tasks/a/b=1", "tasks/=1"} {
		assert.Error(t, run(t.Context(), []string{"-seed", bad}, io.Discard, io.Discard), bad)
	}
}

// TestEmptyAndIDSpace: -empty starts with the demo user alone; fakes
// started with different -id-space values mint different ids, so an id
// copied from one names nothing in the other.
func TestEmptyAndIDSpace(t *testing.T) {
	ctx := t.Context()
	client := func(banner []string) (*workflow.Client, map[string]string) {
		printed := map[string]string{}
		for _, line := range banner {
			if k, v, ok := strings.Cut(line, ":"); ok && !strings.HasPrefix(line, " ") {
				printed[k] = strings.TrimSpace(v)
			}
		}
		auth, _, _ := strings.Cut(printed["auth URL"], " ")
		c, err := workflow.NewClient(workflow.WithCredentials(demoClientID, demoClientSecret), workflow.WithEndpoint(printed["base URL"], auth))
		require.NoError(t, err)
		t.Cleanup(c.CloseIdleConnections)
		return c, printed
	}
	demoBanner, stopDemo := serveFake(t, "-addr", "127.0.0.1:0", "-id-space", "1")
	emptyBanner, stopEmpty := serveFake(t, "-addr", "127.0.0.1:0", "-id-space", "0x2", "-empty")
	demo, printedDemo := client(demoBanner)
	empty, printedEmpty := client(emptyBanner)
	assert.Equal(t, "0x1 (ids such as 40000001-0000-4000-8000-000000000001)", printedDemo["id space"])
	assert.Equal(t, "0x2 (ids such as 40000002-0000-4000-8000-000000000001)", printedEmpty["id space"])
	assert.Contains(t, printedEmpty["data"], "none")
	assert.NotContains(t, printedEmpty, "automations", "no demo app to list")

	// the empty fake has the demo user alone, and no record definition
	users, err := empty.Users.List(ctx, nil)
	require.NoError(t, err)
	require.Equal(t, 1, users.Total)
	assert.Equal(t, workflowtest.DefaultUserID, users.Items[0].ID)
	_, err = empty.Records.List(ctx, workflow.Tasks, workflowtest.DemoTasks, nil)
	assert.ErrorIs(t, err, workflow.ErrNotFound)

	// the same object on each has an id of its space; copied, it names nothing
	nu := workflow.NewUser{Email: "ada@example.com", FirstName: "Ada", LastName: "Lovelace"}
	ada1, err := demo.Users.Create(ctx, nu)
	require.NoError(t, err)
	ada2, err := empty.Users.Create(ctx, nu)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(ada1.ID, "00000001-"), ada1.ID)
	assert.Equal(t, "00000002-0000-4000-8000-000000000002", ada2.ID)
	_, err = empty.Users.Get(ctx, ada1.ID)
	assert.ErrorIs(t, err, workflow.ErrNotFound)

	demo.CloseIdleConnections()
	empty.CloseIdleConnections()
	stopDemo()
	stopEmpty()
	for _, bad := range []string{"", "x", "-1", "268435456", "0x10000000"} {
		assert.Error(t, run(t.Context(), []string{"-id-space", bad}, io.Discard, io.Discard), bad)
	}
}
