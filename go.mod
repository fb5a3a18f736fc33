module github.com/cardtable/cardbot

go 1.26.8

toolchain go1.27.4

require (
	github.com/bwmarrin/discordgo v0.29.0
	github.com/gorilla/websocket v1.4.2
	github.com/joho/godotenv v1.5.1
	go.etcd.io/bbolt v1.5.0
)

require (
	golang.org/x/crypto v0.0.0-20210421170649-83a5a9bb288b // indirect
	golang.org/x/sys v0.45.0 // indirect
)
