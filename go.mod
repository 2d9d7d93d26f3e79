module github.com/seed-a15e58aa/workflow-go

go 1.26.0

require (
	github.com/go-json-experiment/json v1.27.2
	github.com/google/go-querystring v1.2.0
	github.com/stretchr/testify v1.12.1
	go.uber.org/goleak v1.3.0
	golang.org/x/oauth2 v0.37.0
	golang.org/x/sync v0.24.0
	golang.org/x/time v0.16.0
)

require go.yaml.in/yaml/v3 v3.0.6 // indirect
