package workflowtest_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workflow "github.com/seed-a15e58aa/workflow-go"
	"github.com/seed-a15e58aa/workflow-go/workflowtest"
)

func TestE2EAttachments(t *testing.T) {
	srv := workflowtest.Start(t, workflowtest.WithAttachmentPolicy(workflowtest.ReadyAfterPolls(2)))
	seed(srv, 1)
	c := srv.Client()
	ctx := t.Context()

	content := bytes.Repeat([]byte("quarterly numbers\n"), 5000)
	att, err := c.Attachments.Upload(ctx, workflow.Tasks, "it-requests", "1", "q3.csv", bytes.NewReader(content),
		&workflow.UploadOptions{Description: "Q3"})
	require.NoError(t, err)
	assert.Equal(t, workflow.AttachmentProcessing, att.State)
	assert.Equal(t, "q3.csv", att.Name)
	assert.Equal(t, "Q3", att.Description)
	assert.Equal(t, int64(len(content)), att.Size)
	assert.False(t, att.CreatedAt.IsZero())
	assert.Empty(t, att.Extra)

	info := srv.Attachments(workflow.Tasks, "it-requests", "1")
	require.Len(t, info, 1)
	sum := sha256.Sum256(content)
	assert.Equal(t, hex.EncodeToString(sum[:]), info[0].SHA256, "the fake received the exact bytes")
	assert.Equal(t, att.MediaType, info[0].MediaType)

	assert.Equal(t, "/v1/tasks/it-requests/1/attachments/"+att.ID+"/content", att.ContentURL)
	assert.Equal(t, "PRIVATE", att.ViewState)
	done, err := c.Attachments.WaitProcessed(ctx, workflow.Tasks, "it-requests", "1", att.ID,
		&workflow.WaitOptions{PollInterval: time.Millisecond, MaxPollInterval: time.Millisecond})
	require.NoError(t, err)
	assert.Equal(t, workflow.AttachmentValid, done.State)
	assert.True(t, done.State.IsReady())

	// The content comes back as uploaded, by id and by contentUrl.
	dl, err := c.Attachments.Download(ctx, workflow.Tasks, "it-requests", "1", att.ID)
	require.NoError(t, err)
	assert.Equal(t, "q3.csv", dl.Name)
	assert.Equal(t, info[0].MediaType, dl.MediaType)
	assert.Equal(t, int64(len(content)), dl.Size)
	var got bytes.Buffer
	var last int64
	n, err := dl.SaveTo(&got, func(written, total int64) {
		assert.Greater(t, written, last, "progress only grows")
		assert.Equal(t, int64(len(content)), total)
		last = written
	})
	require.NoError(t, err)
	assert.Equal(t, int64(len(content)), n)
	assert.Equal(t, int64(len(content)), last)
	assert.Equal(t, content, got.Bytes())
	dl, err = c.Attachments.DownloadAttachment(ctx, workflow.Tasks, "it-requests", "1", done)
	require.NoError(t, err)
	saved := filepath.Join(t.TempDir(), "q3-copy.csv")
	_, err = dl.SaveFile(saved, nil)
	require.NoError(t, err)
	onDisk, err := os.ReadFile(saved)
	require.NoError(t, err)
	assert.Equal(t, content, onDisk)

	// UploadFile from disk.
	path := filepath.Join(t.TempDir(), "notes.txt")
	require.NoError(t, os.WriteFile(path, []byte("hello"), 0o600))
	att2, err := c.Attachments.UploadFile(ctx, workflow.Tasks, "it-requests", "1", path, nil)
	require.NoError(t, err)
	assert.Equal(t, "notes.txt", att2.Name)
	assert.Equal(t, int64(5), att2.Size)

	list, err := c.Attachments.List(ctx, workflow.Tasks, "it-requests", "1")
	require.NoError(t, err)
	require.Len(t, list, 2)
	assert.Equal(t, []string{att.ID, att2.ID}, []string{list[0].ID, list[1].ID})

	require.NoError(t, c.Attachments.Delete(ctx, workflow.Tasks, "it-requests", "1", att2.ID))
	_, err = c.Attachments.Get(ctx, workflow.Tasks, "it-requests", "1", att2.ID)
	assert.ErrorIs(t, err, workflow.ErrNotFound)
	_, err = c.Attachments.Upload(ctx, workflow.Tasks, "it-requests", "404", "x.txt", bytes.NewReader([]byte("x")), nil)
	assert.ErrorIs(t, err, workflow.ErrNotFound)
}

// TestE2EAttachmentProcessingFails: an upload the fault makes fail ends
// WaitProcessed with ErrAttachmentFailed and has no content to download;
// the next upload is processed as usual.
func TestE2EAttachmentProcessingFails(t *testing.T) {
	srv := workflowtest.Start(t)
	seed(srv, 1)
	c := srv.Client()
	ctx := t.Context()
	srv.Inject(workflowtest.Fault{Route: "POST /v1/{recordType}/{alias}/{id}/attachments", Count: 1, ProcessingError: true})
	wait := &workflow.WaitOptions{PollInterval: time.Millisecond}

	bad, err := c.Attachments.Upload(ctx, workflow.Tasks, "it-requests", "1", "bad.bin", strings.NewReader("xyz"), nil)
	require.NoError(t, err)
	assert.True(t, bad.State.IsProcessing())
	got, err := c.Attachments.WaitProcessed(ctx, workflow.Tasks, "it-requests", "1", bad.ID, wait)
	require.ErrorIs(t, err, workflow.ErrAttachmentFailed)
	require.NotNil(t, got)
	assert.True(t, got.State.IsFailed())
	_, err = c.Attachments.Download(ctx, workflow.Tasks, "it-requests", "1", bad.ID)
	var apiErr *workflow.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, 409, apiErr.StatusCode)

	good, err := c.Attachments.Upload(ctx, workflow.Tasks, "it-requests", "1", "good.bin", strings.NewReader("abc"), nil)
	require.NoError(t, err)
	got, err = c.Attachments.WaitProcessed(ctx, workflow.Tasks, "it-requests", "1", good.ID, wait)
	require.NoError(t, err)
	assert.True(t, got.State.IsReady())
}

// TestE2EWaitProcessedOnServerClock: with ReadyAfter on a clock the test
// moves, the attachment stays PROCESSING until the clock passes the delay;
// no test timing is involved.
func TestE2EWaitProcessedOnServerClock(t *testing.T) {
	start := time.Date(2026, 2, 3, 10, 30, 0, 0, time.UTC)
	srv := workflowtest.Start(t, workflowtest.WithClock(func() time.Time { return start }),
		workflowtest.WithAttachmentPolicy(workflowtest.ReadyAfter(time.Minute)))
	seed(srv, 1)
	c := srv.Client()
	ctx := t.Context()
	att, err := c.Attachments.Upload(ctx, workflow.Tasks, "it-requests", "1", "a.txt", strings.NewReader("a"), nil)
	require.NoError(t, err)
	again, err := c.Attachments.Get(ctx, workflow.Tasks, "it-requests", "1", att.ID)
	require.NoError(t, err)
	assert.Equal(t, workflow.AttachmentProcessing, again.State)
	assert.Equal(t, start, again.CreatedAt)
	_, err = c.Attachments.Download(ctx, workflow.Tasks, "it-requests", "1", att.ID)
	assert.Error(t, err, "no content while processing")

	srv.Advance(time.Minute)
	done, err := c.Attachments.WaitProcessed(ctx, workflow.Tasks, "it-requests", "1", att.ID, nil)
	require.NoError(t, err)
	assert.Equal(t, workflow.AttachmentValid, done.State)
}

func TestE2EUploadTooLarge(t *testing.T) {
	srv := workflowtest.Start(t, workflowtest.WithMaxUploadSize(1000))
	seed(srv, 1)
	c := srv.Client()
	// The SDK does not know the fake's smaller limit, so the fake answers.
	_, err := c.Attachments.Upload(t.Context(), workflow.Tasks, "it-requests", "1", "big.bin", bytes.NewReader(make([]byte, 5000)), nil)
	assert.ErrorIs(t, err, workflow.ErrTooLarge)
	assert.Empty(t, srv.Attachments(workflow.Tasks, "it-requests", "1"))
}

func TestE2ERelatedWatchersComments(t *testing.T) {
	srv := workflowtest.Start(t)
	seed(srv, 1)
	parts := srv.Seed(workflow.Elements, "parts", workflow.Record{"Name": "bolt"}, workflow.Record{"Name": "nut"})
	bob := srv.AddUser("bob@example.com", "Bob", "Builder")
	c := srv.Client()
	ctx := t.Context()

	items, err := c.Records.AddRelatedItems(ctx, workflow.Tasks, "it-requests", "1",
		workflow.RelatedRef{RecordType: workflow.Elements, Alias: "parts", RecordID: parts[0]},
		workflow.RelatedRef{RecordType: workflow.Elements, Alias: "parts", RecordID: parts[1]})
	require.NoError(t, err)
	require.Len(t, items, 2)
	assert.Equal(t, []string{"elements/parts/" + parts[0], "elements/parts/" + parts[1]}, srv.Related(workflow.Tasks, "it-requests", "1"))
	got, err := c.Records.RelatedItems(ctx, workflow.Tasks, "it-requests", "1")
	require.NoError(t, err)
	require.Len(t, got, 2)
	assert.Equal(t, workflow.Elements, got[1].RecordType)
	assert.Equal(t, parts[1], got[1].RecordID)
	require.NoError(t, c.Records.RemoveRelatedItem(ctx, workflow.Tasks, "it-requests", "1", got[0].ID))
	assert.Equal(t, []string{"elements/parts/" + parts[1]}, srv.Related(workflow.Tasks, "it-requests", "1"))
	// One relation per request, as the spec requires.
	n := 0
	for _, r := range srv.Requests() {
		if r.Method == "POST" && r.Route == "POST /v1/{recordType}/{alias}/{id}/related-items" {
			n++
		}
	}
	assert.Equal(t, 2, n)

	require.NoError(t, c.Records.AddWatchers(ctx, workflow.Tasks, "it-requests", "1", bob.UserID, workflowtest.DefaultUserID))
	ws, err := c.Records.Watchers(ctx, workflow.Tasks, "it-requests", "1")
	require.NoError(t, err)
	require.Len(t, ws, 2)
	assert.Equal(t, "Bob Builder", ws[0].Name)
	assert.Equal(t, "bob@example.com", ws[0].Email)
	require.NoError(t, c.Records.RemoveWatchers(ctx, workflow.Tasks, "it-requests", "1", bob.UserID))
	assert.Equal(t, []string{workflowtest.DefaultUserID}, srv.Watchers(workflow.Tasks, "it-requests", "1"))

	cm, err := c.Records.AddComment(ctx, workflow.Tasks, "it-requests", "1", "On it.")
	require.NoError(t, err)
	assert.Equal(t, "On it.", cm.Text)
	assert.Equal(t, workflowtest.DefaultUserID, cm.AuthorID)
	cs, err := c.Records.Comments(ctx, workflow.Tasks, "it-requests", "1")
	require.NoError(t, err)
	require.Len(t, cs, 1)
	assert.Equal(t, cm.ID, cs[0].ID)
	assert.False(t, cs[0].CreatedAt.IsZero())

	_, err = c.Records.Comments(ctx, workflow.Tasks, "it-requests", "9")
	assert.ErrorIs(t, err, workflow.ErrNotFound)
}
