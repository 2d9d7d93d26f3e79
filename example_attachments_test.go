package workflow_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"time"

	workflow "github.com/seed-a15e58aa/workflow-go"
)

// ExampleAttachmentsService_UploadFile uploads a file to a task, then waits
// until the service has processed it.
func ExampleAttachmentsService_UploadFile() {
	srv := newRecordExampleServer() // stands in for the service
	defer srv.Close()
	c, err := workflow.NewClient(
		workflow.WithCredentials("client-id", "client-secret"),
		workflow.WithEndpoint(srv.URL+"/v1", srv.URL),
		workflow.WithHTTPClient(srv.Client()),
	)
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()

	dir, err := os.MkdirTemp("", "upload-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "report.pdf")
	if err := os.WriteFile(path, []byte("%PDF-1.7 quarterly numbers"), 0o600); err != nil {
		log.Fatal(err)
	}

	att, err := c.Attachments.UploadFile(ctx, workflow.Tasks, "it-requests", "T-1", path,
		&workflow.UploadOptions{Description: "Q3"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(att.Name, att.MediaType, att.Size, "bytes:", att.State)

	// Bound the wait; the poll interval starts at 250ms by default.
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	att, err = c.Attachments.WaitProcessed(ctx, workflow.Tasks, "it-requests", "T-1", att.ID,
		workflow.PollInterval(10*time.Millisecond, time.Second))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(att.Name, "is", att.State)
	// Output:
	// report.pdf application/pdf 26 bytes: processing
	// report.pdf is ready
}

// ExampleRecordsService_AddRelatedItem relates an element record to an app
// record, then lists the app record's related items.
func ExampleRecordsService_AddRelatedItem() {
	srv := newRecordExampleServer() // stands in for the service
	defer srv.Close()
	c, err := workflow.NewClient(
		workflow.WithCredentials("client-id", "client-secret"),
		workflow.WithEndpoint(srv.URL+"/v1", srv.URL),
		workflow.WithHTTPClient(srv.Client()),
	)
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()

	part := workflow.RelatedRef{RecordType: workflow.Elements, Alias: "parts", RecordID: "E-7"}
	rel, err := c.Records.AddRelatedItem(ctx, workflow.Apps, "crm", "A-1", part)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("added relation", rel.ID, "to", rel.Ref())

	items, err := c.Records.RelatedItems(ctx, workflow.Apps, "crm", "A-1")
	if err != nil {
		log.Fatal(err)
	}
	for _, it := range items {
		fmt.Println(it.ID, it.RecordType, it.Alias, it.RecordID)
	}
	// Output:
	// added relation rel-1 to elements/parts/E-7
	// rel-1 elements parts E-7
}

// newRecordExampleServer is a tiny stand-in for the service: a token
// endpoint, file uploads to tasks/it-requests (ready on the second poll),
// and related items of apps/crm records.
func newRecordExampleServer() *httptest.Server {
	var (
		mu        sync.Mutex
		upload    map[string]any
		polls     int
		relations []map[string]string
	)
	reply := func(w http.ResponseWriter, status int, v any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(v)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /oauth/token", func(w http.ResponseWriter, r *http.Request) {
		reply(w, http.StatusOK, map[string]any{"access_token": "example-token", "token_type": "bearer", "expires_in": 86400})
	})
	mux.HandleFunc("POST /v1/tasks/it-requests/{id}/attachments", func(w http.ResponseWriter, r *http.Request) {
		mr, err := r.MultipartReader()
		if err != nil {
			reply(w, http.StatusBadRequest, map[string]any{"status": 400, "message": err.Error()})
			return
		}
		att := map[string]any{"id": "att-1", "state": "processing", "createdAt": "2024-03-05T10:11:12.345Z"}
		for {
			p, err := mr.NextPart()
			if err != nil {
				break
			}
			switch p.FormName() {
			case "description":
				b, _ := io.ReadAll(p)
				att["description"] = string(b)
			case "file":
				n, _ := io.Copy(io.Discard, p) // counted, not kept
				att["name"], att["mediaType"], att["size"] = p.FileName(), p.Header.Get("Content-Type"), n
			}
		}
		mu.Lock()
		upload, polls = att, 0
		mu.Unlock()
		reply(w, http.StatusAccepted, att)
	})
	mux.HandleFunc("GET /v1/tasks/it-requests/{id}/attachments/{att}", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if upload == nil || r.PathValue("att") != upload["id"] {
			reply(w, http.StatusNotFound, map[string]any{"status": 404, "message": "attachment not found"})
			return
		}
		if polls++; polls >= 2 {
			upload["state"] = "ready"
		}
		reply(w, http.StatusOK, upload)
	})
	mux.HandleFunc("POST /v1/apps/crm/{id}/related-items", func(w http.ResponseWriter, r *http.Request) {
		var in map[string]string
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
			reply(w, http.StatusBadRequest, map[string]any{"status": 400, "message": err.Error()})
			return
		}
		mu.Lock()
		in["id"] = fmt.Sprintf("rel-%d", len(relations)+1)
		relations = append(relations, in)
		mu.Unlock()
		reply(w, http.StatusCreated, in)
	})
	mux.HandleFunc("GET /v1/apps/crm/{id}/related-items", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		reply(w, http.StatusOK, relations)
	})
	return httptest.NewServer(mux)
}
