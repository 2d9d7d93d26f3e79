package workflowtest_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
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

	done, err := c.Attachments.WaitProcessed(ctx, workflow.Tasks, "it-requests", "1", att.ID,
		workflow.PollInterval(time.Millisecond, time.Millisecond))
	require.NoError(t, err)
	assert.Equal(t, workflow.AttachmentState(workflowtest.StateReady), done.State)

	// UploadFile from disk.
	path := filepath.Join(t.TempDir(), "notes.txt")
	require.NoError(t, os.WriteFile(path, []byte("hello"), 0o600))
	att2, err := c.Attachments.UploadFile(ctx, workflow.Tasks, "it-requests", "1", path, nil)
	require.NoError(t, err)
	assert.Equal(t, "notes.txt", att2.Name)
	assert.Equal(t, int64(5), att2.Size)

	link, err := c.Attachments.AddLink(ctx, workflow.Tasks, "it-requests", "1", workflow.Link{URL: "https://example.com/spec", Name: "Spec"})
	require.NoError(t, err)
	assert.Equal(t, "https://example.com/spec", link.URL)
	assert.Equal(t, "text/uri-list", link.MediaType)

	list, err := c.Attachments.List(ctx, workflow.Tasks, "it-requests", "1")
	require.NoError(t, err)
	require.Len(t, list, 3)
	assert.Equal(t, []string{att.ID, att2.ID, link.ID}, []string{list[0].ID, list[1].ID, list[2].ID})

	require.NoError(t, c.Attachments.Delete(ctx, workflow.Tasks, "it-requests", "1", att2.ID))
	_, err = c.Attachments.Get(ctx, workflow.Tasks, "it-requests", "1", att2.ID)
	assert.ErrorIs(t, err, workflow.ErrNotFound)
	_, err = c.Attachments.Upload(ctx, workflow.Tasks, "it-requests", "404", "x.txt", bytes.NewReader([]byte("x")), nil)
	assert.ErrorIs(t, err, workflow.ErrNotFound)
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
