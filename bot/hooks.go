package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Interaction endpoints (the answer, its follow-ups and @original edits)
// are sent here rather than through discordgo's rate limiter, which puts
// every webhook edit of the bot in one bucket and holds that bucket's lock
// for a whole round trip, so all hand refreshes waited in one line; and it
// keeps a bucket per interaction token for ever. At Discord each token's
// routes have limits of their own, and a token is used a few times. Their
// headers are followed here: once an answer says a bucket is empty, the
// next request on that route and token waits for it to refill (a 429
// counts toward Discord's ban on invalid requests), and a 429 all the same
// is waited out.

// answer sends an interaction's first answer. Discord takes it only
// within 3 s of the click, so the request is not waited on longer: one
// Discord is slow to take would hold up every click queued behind it in
// its channel.
func (b *Bot) answer(i *discordgo.Interaction, resp *discordgo.InteractionResponse, received time.Time) error {
	ctx, cancel := context.WithDeadline(context.Background(), received.Add(answerDeadline))
	defer cancel()
	return b.hook(ctx, "", http.MethodPost, discordgo.EndpointInteractionResponse(i.ID, i.Token), resp)
}

// answerDeadline is Discord's time for an interaction's first answer.
const answerDeadline = 3 * time.Second

// editOriginal changes the message an interaction token answered with.
func (b *Bot) editOriginal(ctx context.Context, app, token string, e *discordgo.WebhookEdit) error {
	return b.hook(ctx, "edit "+token, http.MethodPatch, discordgo.EndpointWebhookMessage(app, token, "@original"), e)
}

// followUp posts a follow-up message to an interaction.
func (b *Bot) followUp(i *discordgo.Interaction, p *discordgo.WebhookParams) error {
	return b.hook(context.Background(), "follow-up "+i.Token, http.MethodPost, discordgo.EndpointWebhookToken(i.AppID, i.Token)+"?wait=true", p)
}

// hookTries bounds the attempts of a request Discord answers 429.
const hookTries = 3

// ctx marks an output job's requests (withSlot); it sets no deadline.
// bucket names the rate-limit bucket the request's headers speak of: its
// kind and token. Buckets are per route, so an empty callback bucket (an
// answer is made once) must not hold the token's edits; "" tracks none.
func (b *Bot) hook(ctx context.Context, bucket, method, url string, data any) error {
	body, err := encodePayload(data)
	if err != nil {
		return err
	}
	for attempt := 1; ; attempt++ {
		if err := b.awaitBucket(ctx, bucket); err != nil {
			return err
		}
		resp, got, err := b.hookOnce(ctx, method, url, body)
		if err != nil {
			return err
		}
		b.noteBucket(bucket, resp)
		if resp.StatusCode < 300 {
			return nil
		}
		if resp.StatusCode == http.StatusTooManyRequests {
			// Never sooner than Discord asks: a request made early draws
			// another 429, which counts toward its invalid-request ban. A
			// wait longer than maxHookWait is given up on instead.
			wait := retryAfter(resp, got)
			if bucket != "" {
				b.limited.hold(bucket, time.Now().Add(wait+bucketMargin))
			}
			if attempt < hookTries && wait <= maxHookWait {
				if bucket == "" {
					time.Sleep(wait)
				}
				continue
			}
		}
		rest := &discordgo.RESTError{Request: resp.Request, Response: resp, ResponseBody: got}
		var msg discordgo.APIErrorMessage
		if json.Unmarshal(got, &msg) == nil && (msg.Code != 0 || msg.Message != "") {
			rest.Message = &msg
		}
		return rest
	}
}

// maxBucketWait bounds a wait for a token's bucket to refill; maxHookWait
// a wait a 429 asks for before the request is made again.
const (
	maxBucketWait = 30 * time.Second
	maxHookWait   = 5 * time.Second
)

// errBucketHeld: the bucket stays empty for longer than a request waits.
var errBucketHeld = errors.New("rate limited: the bucket refills later than a request waits")

// awaitBucket holds a request until its bucket refills, if an answer said
// it is empty; a bucket that refills after maxBucketWait is given up on,
// as a request made before would only draw a 429.
func (b *Bot) awaitBucket(ctx context.Context, bucket string) error {
	if bucket == "" {
		return nil
	}
	until, ok := b.limited.when(bucket)
	if !ok {
		return nil
	}
	d := time.Until(until)
	if d > maxBucketWait {
		return errBucketHeld
	}
	if d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
		}
	}
	return nil
}

// noteBucket remembers when bucket refills, if the answer says it has no
// request left.
func (b *Bot) noteBucket(bucket string, resp *http.Response) {
	if bucket == "" || resp.Header.Get("X-RateLimit-Remaining") != "0" {
		return
	}
	secs, err := strconv.ParseFloat(resp.Header.Get("X-RateLimit-Reset-After"), 64)
	if err != nil || secs <= 0 {
		return
	}
	wait := time.Duration(secs*float64(time.Second)) + bucketMargin
	b.limited.hold(bucket, time.Now().Add(wait))
}

// bucketMargin: Reset-After comes rounded to the millisecond, maybe down,
// and a request a hair early would draw the 429 the wait is for.
const bucketMargin = 5 * time.Millisecond

// hookOnce makes one request and reads the answer's body unless it is a
// success, whose message is never used: drained, so the connection goes
// back to the pool. Its deadline is the transport's (metered), which rides
// on a context: Client.Timeout would start a goroutine for every request.
func (b *Bot) hookOnce(ctx context.Context, method, url string, body []byte) (*http.Response, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))
	if err != nil {
		return nil, nil, err
	}
	// Keys spelled canonically: Set would canonicalize them on every request.
	req.Header = http.Header{
		"Authorization": {b.s.Token},
		"Content-Type":  {"application/json"},
		"User-Agent":    {b.s.UserAgent},
	}
	client := http.Client{Transport: b.s.Client.Transport}
	resp, err := client.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode < 300 {
		_, err = io.Copy(io.Discard, resp.Body)
		return resp, nil, err
	}
	got, err := io.ReadAll(resp.Body)
	return resp, got, err
}

// retryAfter is how long a 429 asks to wait.
func retryAfter(resp *http.Response, body []byte) time.Duration {
	var rl struct {
		RetryAfter float64 `json:"retry_after"`
	}
	var secs float64
	if json.Unmarshal(body, &rl) == nil && rl.RetryAfter > 0 {
		secs = rl.RetryAfter
	} else if h, err := strconv.ParseFloat(resp.Header.Get("Retry-After"), 64); err == nil {
		secs = h
	}
	return time.Duration(secs * float64(time.Second))
}
