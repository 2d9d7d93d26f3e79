module github.com/seed-a15e58aa/workflow-go/internal/benchcmp

go 1.26.0

replace github.com/seed-a15e58aa/workflow-go => ../..

require (
	github.com/bytedance/sonic v1.15.5
	github.com/goccy/go-json v0.12.0
	github.com/seed-a15e58aa/workflow-go v0.0.0-00010101000000-000000000000
	github.com/stretchr/testify v1.12.1
)

require (
	github.com/bytedance/gopkg v0.1.3 // indirect
	github.com/bytedance/sonic/loader v0.5.3 // indirect
	github.com/cloudwego/base64x v0.1.6 // indirect
	github.com/go-json-experiment/json v1.27.2 // indirect
	github.com/google/go-querystring v1.2.0 // indirect
	github.com/klauspost/cpuid/v2 v2.2.9 // indirect
	github.com/twitchyliquid64/golang-asm v0.15.1 // indirect
	go.yaml.in/yaml/v3 v3.0.6 // indirect
	golang.org/x/arch v0.0.0-20210923205945-b76863e36670 // indirect
	golang.org/x/oauth2 v0.37.0 // indirect
	golang.org/x/sys v0.22.0 // indirect
	golang.org/x/time v0.16.0 // indirect
)
