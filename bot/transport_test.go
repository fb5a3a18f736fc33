package bot

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// startTLS starts a server that answers as Discord's API does over TLS,
// with a message, offering HTTP/2 as Discord's front does.
func startTLS() *httptest.Server {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Write(bytes.Repeat([]byte("x"), 600))
	}))
	srv.EnableHTTP2 = true
	srv.StartTLS()
	return srv
}

func tlsServer(t testing.TB) *httptest.Server {
	srv := startTLS()
	t.Cleanup(srv.Close)
	return srv
}

// trusting is tr, trusting srv's certificate.
func trusting(tr *http.Transport, srv *httptest.Server) *http.Transport {
	tr.TLSClientConfig = &tls.Config{RootCAs: srv.Client().Transport.(*http.Transport).TLSClientConfig.RootCAs}
	return tr
}

// The bot keeps to HTTP/1.1 where the server offers HTTP/2 too: Go's
// HTTP/2 client spent about 1.6 times the CPU per request (see
// BenchmarkTransport).
func TestTransportSpeaksHTTP1(t *testing.T) {
	srv := tlsServer(t)
	c := &http.Client{Transport: trusting(NewTransport(), srv)}
	resp, err := c.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.ProtoMajor != 1 || resp.TLS == nil {
		t.Errorf("the bot's transport spoke %s (TLS %v)", resp.Proto, resp.TLS != nil)
	}
	h2 := trusting(NewTransport(), srv)
	h2.Protocols = new(http.Protocols)
	h2.Protocols.SetHTTP2(true)
	resp, err = (&http.Client{Transport: h2}).Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.ProtoMajor != 2 {
		t.Errorf("the test server spoke %s when asked for HTTP/2: no test of the choice", resp.Proto)
	}
}

// BenchmarkTransport: hand edits over TLS, 16 at a time, as the bot's
// transport sends them and as Go's HTTP/2 client would. The server is a
// child process (TestMain), as Discord is elsewhere, so cpu-µs/op is the
// client's CPU alone: user and system time of this process per request.
func BenchmarkTransport(b *testing.B) {
	url, roots := echoServer(b)
	body := bytes.Repeat([]byte("y"), 1200)
	for _, c := range []struct {
		name  string
		proto func(*http.Protocols)
	}{
		{"http1", nil},
		{"http2", func(p *http.Protocols) { p.SetHTTP2(true) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			tr := NewTransport()
			tr.TLSClientConfig = &tls.Config{RootCAs: roots}
			if c.proto != nil {
				tr.Protocols = new(http.Protocols)
				c.proto(tr.Protocols)
			}
			defer tr.CloseIdleConnections()
			client := &http.Client{Transport: tr}
			b.ReportAllocs()
			b.SetParallelism(8) // 16 on 2 cores
			var failed atomic.Pointer[error]
			before := cpuTime()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					req, _ := http.NewRequest("PATCH", url+"/webhooks/1/token/messages/@original", bytes.NewReader(body))
					req.Header.Set("Content-Type", "application/json")
					resp, err := client.Do(req)
					if err != nil {
						failed.Store(&err)
						return
					}
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
			})
			b.ReportMetric(float64((cpuTime()-before).Microseconds())/float64(b.N), "cpu-µs/op")
			if err := failed.Load(); err != nil {
				b.Fatal(*err)
			}
		})
	}
}

// cpuTime is the user and system time this process has had.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

const echoEnv = "CARDBOT_TEST_TLS_ECHO"

// TestMain is also BenchmarkTransport's server, when started with echoEnv.
func TestMain(m *testing.M) {
	if os.Getenv(echoEnv) != "" {
		srv := startTLS()
		pem.Encode(os.Stdout, &pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
		fmt.Println(srv.URL)
		io.Copy(io.Discard, os.Stdin) // until the benchmark ends
		return
	}
	os.Exit(m.Run())
}

// echoServer starts this test binary as a TLS server in a child process.
func echoServer(b *testing.B) (string, *x509.CertPool) {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), echoEnv+"=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { stdin.Close(); cmd.Wait() })
	r := bufio.NewReader(out)
	var pemText []byte
	for {
		line, err := r.ReadBytes('\n')
		if err != nil {
			b.Fatalf("echo server: %v", err)
		}
		if bytes.HasPrefix(line, []byte("https://")) {
			block, _ := pem.Decode(pemText)
			cert, err := x509.ParseCertificate(block.Bytes)
			if err != nil {
				b.Fatal(err)
			}
			roots := x509.NewCertPool()
			roots.AddCert(cert)
			return string(bytes.TrimSpace(line)), roots
		}
		pemText = append(pemText, line...)
	}
}
