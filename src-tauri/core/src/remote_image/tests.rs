use std::sync::{Arc, Mutex};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

use super::*;

/// A PNG of one transparent pixel.
const PIXEL: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x04, 0x00, 0x00, 0x00, 0xb5, 0x1c, 0x0c,
    0x02, 0x00, 0x00, 0x00, 0x0b, 0x49, 0x44, 0x41, 0x54, 0x78, 0xda, 0x63, 0x64, 0xf8, 0x0f, 0x00,
    0x01, 0x05, 0x01, 0x01, 0x27, 0x18, 0xe3, 0x66, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44,
    0xae, 0x42, 0x60, 0x82,
];

/// One answer of the loopback server: its head (status line and headers) and its body.
struct Answer {
    head: String,
    body: Vec<u8>,
}

fn answer(status: &str, headers: &[(&str, String)], body: &[u8]) -> Answer {
    let mut head = format!("HTTP/1.1 {status}\r\nConnection: close\r\n");
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    Answer {
        head,
        body: body.to_vec(),
    }
}

fn image(content_type: &str, body: &[u8]) -> Answer {
    answer(
        "200 OK",
        &[
            ("Content-Type", content_type.to_owned()),
            ("Content-Length", body.len().to_string()),
        ],
        body,
    )
}

/// A loopback HTTP server answering each request by its path; returns its address and the
/// heads of the requests it was sent.
async fn serve(
    answers: impl Fn(&str) -> Answer + Send + Sync + 'static,
) -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let kept = Arc::clone(&seen);
    let answers = Arc::new(answers);
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let kept = Arc::clone(&kept);
            let answers = Arc::clone(&answers);
            tokio::spawn(async move {
                let mut request = Vec::new();
                let mut buf = [0u8; 4096];
                while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                    match socket.read(&mut buf).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => request.extend_from_slice(&buf[..n]),
                    }
                }
                let request = String::from_utf8_lossy(&request).into_owned();
                let path = request.split(' ').nth(1).unwrap_or("").to_owned();
                kept.lock().unwrap().push(request);
                let Answer { head, body } = answers(&path);
                let _ = socket.write_all(format!("{head}\r\n").as_bytes()).await;
                let _ = socket.write_all(&body).await;
                let _ = socket.shutdown().await;
            });
        }
    });
    (base, seen)
}

#[test]
fn base64_is_the_standard_alphabet_with_padding() {
    for (plain, encoded) in [
        ("", ""),
        ("f", "Zg=="),
        ("fo", "Zm8="),
        ("foo", "Zm9v"),
        ("foob", "Zm9vYg=="),
        ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ] {
        assert_eq!(base64(plain.as_bytes()), encoded, "{plain}");
    }
    assert_eq!(base64(&[0xff, 0xfe, 0xfd]), "//79");
}

#[tokio::test]
async fn an_image_arrives_as_a_data_url_of_its_type() {
    let (base, seen) = serve(|_| image("image/png", PIXEL)).await;
    let url = fetch_as_data_url(&format!("{base}/cat.png")).await.unwrap();
    assert_eq!(
        url,
        "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNk+A8AAQUBAScY42YAAAAASUVORK5CYII="
    );
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 1);
    let head = seen[0].to_ascii_lowercase();
    assert!(head.starts_with("get /cat.png http/1.1"), "{head}");
    for header in ["cookie:", "referer:", "authorization:"] {
        assert!(!head.contains(header), "{header} sent:\n{head}");
    }
}

#[tokio::test]
async fn an_svg_image_keeps_its_type_and_parameters_are_dropped() {
    let svg = br#"<svg xmlns="http://www.w3.org/2000/svg"/>"#;
    let (base, _) = serve(move |_| image("Image/SVG+XML; charset=utf-8", svg)).await;
    let url = fetch_as_data_url(&format!("{base}/logo.svg"))
        .await
        .unwrap();
    assert!(url.starts_with("data:image/svg+xml;base64,"), "{url}");
}

#[tokio::test]
async fn an_answer_that_is_not_an_image_is_refused() {
    let (base, _) = serve(|path| match path {
        "/page" => image("text/html", b"<script>alert(1)</script>"),
        _ => answer("200 OK", &[("Content-Length", "3".into())], b"GIF"),
    })
    .await;
    assert_eq!(
        fetch_as_data_url(&format!("{base}/page")).await,
        Err(ImageError::NotAnImage {
            url: format!("{base}/page"),
            content_type: "text/html".into()
        })
    );
    let err = fetch_as_data_url(&format!("{base}/untyped"))
        .await
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("{base}/untyped is not an image (the server says it is “nothing”)")
    );
}

#[tokio::test]
async fn a_failed_answer_names_its_status() {
    let (base, _) =
        serve(|_| answer("404 Not Found", &[("Content-Length", "0".into())], b"")).await;
    let err = fetch_as_data_url(&format!("{base}/gone.png"))
        .await
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("the server answered 404 for the image at {base}/gone.png")
    );
}

#[tokio::test]
async fn an_image_over_16_mib_is_refused_whether_it_says_so_or_not() {
    let big = vec![0u8; MAX_IMAGE_BYTES + 1];
    let (base, _) = serve(move |path| match path {
        // Says its length: refused before its body is read.
        "/said.png" => image("image/png", &big),
        // Says nothing: read up to the cap, then refused.
        _ => answer("200 OK", &[("Content-Type", "image/png".into())], &big),
    })
    .await;
    for path in ["/said.png", "/unsaid.png"] {
        let err = fetch_as_data_url(&format!("{base}{path}"))
            .await
            .unwrap_err();
        assert_eq!(
            err,
            ImageError::TooLarge {
                url: format!("{base}{path}")
            }
        );
        assert!(
            err.to_string()
                .ends_with("is over 16 MiB; Ponder stops reading at that size")
        );
    }
}

#[tokio::test]
async fn only_https_or_this_machine_is_fetched_and_nothing_is_sent_otherwise() {
    for address in [
        "http://example.invalid/x.png",
        "http://10.0.0.1/x.png",
        "http://localhost.example.invalid/x.png",
        "//example.invalid/x.png",
        "file:///etc/passwd",
        "data:image/png;base64,iVBORw0KGgo=",
        "javascript:alert(1)",
        "ftp://example.invalid/x.png",
        "tauri://localhost/index.html",
        "not an address",
    ] {
        assert_eq!(
            fetch_as_data_url(address).await,
            Err(ImageError::Address(address.to_owned())),
            "{address}"
        );
    }
    for address in [
        "https://example.invalid/x.png",
        "http://127.0.0.1:9/x.png",
        "http://[::1]:9/x.png",
        "http://LOCALHOST:9/x.png",
    ] {
        assert!(allowed(address).is_some(), "{address}");
    }
}

#[tokio::test]
async fn a_redirect_is_followed_only_to_an_address_fetched_itself() {
    let (base, seen) = serve(|path| match path {
        "/here" => answer("302 Found", &[("Location", "/cat.png".into())], b""),
        "/away" => answer(
            "302 Found",
            &[("Location", "http://example.invalid/cat.png".into())],
            b"",
        ),
        "/loop" => answer("302 Found", &[("Location", "/loop".into())], b""),
        _ => image("image/png", PIXEL),
    })
    .await;
    let here = fetch_as_data_url(&format!("{base}/here")).await.unwrap();
    assert!(here.starts_with("data:image/png;base64,"));
    // A redirect carries no referrer.
    assert!(
        seen.lock()
            .unwrap()
            .iter()
            .all(|head| !head.to_ascii_lowercase().contains("referer:"))
    );
    let away = fetch_as_data_url(&format!("{base}/away"))
        .await
        .unwrap_err();
    assert!(
        away.to_string()
            .contains("it redirects to http://example.invalid/cat.png, which is not https://"),
        "{away}"
    );
    let looped = fetch_as_data_url(&format!("{base}/loop"))
        .await
        .unwrap_err();
    assert!(
        looped.to_string().contains("too many redirects"),
        "{looped}"
    );
}
