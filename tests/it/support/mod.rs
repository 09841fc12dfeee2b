//! Helpers shared by the integration tests. Each test binary uses a subset.
#![allow(dead_code)]

#[macro_use]
pub mod claude;
pub mod fixture;
pub mod hosts;
pub mod install_sh;
pub mod mock_api;
pub mod mock_chat;
pub mod mock_gemini;
pub mod mock_responses;
pub mod oracle;
pub mod repo;
pub mod sdk;
