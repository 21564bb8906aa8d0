// Reference for `npm run bench`: parses every .tf file under the given directories with HashiCorp's
// hclsyntax, on a fixed number of goroutines (-j, default 2), and prints files, bytes and diagnostics.
// Built only when a Go toolchain and the module github.com/hashicorp/hcl/v2 are available.
package main

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

func main() {
	jobs := flag.Int("j", 2, "goroutines parsing at once")
	flag.Parse()
	var files []string
	for _, root := range flag.Args() {
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".tf") {
				files = append(files, p)
			}
			return nil
		})
	}
	work := make(chan string)
	var mu sync.Mutex
	var bytes, diags int
	var wg sync.WaitGroup
	for i := 0; i < *jobs; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range work {
				src, err := os.ReadFile(p)
				if err != nil {
					continue
				}
				_, d := hclsyntax.ParseConfig(src, p, hcl.Pos{Line: 1, Column: 1, Byte: 0})
				mu.Lock()
				bytes += len(src)
				diags += len(d)
				mu.Unlock()
			}
		}()
	}
	for _, f := range files {
		work <- f
	}
	close(work)
	wg.Wait()
	fmt.Printf("%d files, %d bytes, %d diagnostics\n", len(files), bytes, diags)
}
